package io.breaker.redis;

/** A {@code breakers.store.*} property with a value the store cannot use; stops start-up. */
public class InvalidStorePropertyException extends IllegalArgumentException {

    private final String property;
    private final String value;
    private final String allowed;

    public InvalidStorePropertyException(String property, String value, String allowed) {
        super(property + " must be " + allowed + ", was " + value);
        this.property = property;
        this.value = value;
        this.allowed = allowed;
    }

    /** The property's full name, such as {@code breakers.store.timeout}. */
    public String getProperty() {
        return property;
    }

    /** The value found. */
    public String getValue() {
        return value;
    }

    /** What the property accepts. */
    public String getAllowed() {
        return allowed;
    }
}
