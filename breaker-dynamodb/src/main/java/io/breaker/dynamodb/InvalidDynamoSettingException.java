package io.breaker.dynamodb;

/**
 * A setting of the DynamoDB store with a value it cannot use: names the property, the value and what
 * is allowed, whether the setting came from {@code breakers.store.*} or from code.
 */
public class InvalidDynamoSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final String value;
    private final String allowed;

    public InvalidDynamoSettingException(String property, String value, String allowed) {
        super(property + " was '" + value + "'; allowed: " + allowed);
        this.property = property;
        this.value = value;
        this.allowed = allowed;
    }

    /** The property, as written in {@code application.yml}. */
    public String property() {
        return property;
    }

    /** The rejected value, as text. */
    public String value() {
        return value;
    }

    /** What the property accepts. */
    public String allowed() {
        return allowed;
    }
}
