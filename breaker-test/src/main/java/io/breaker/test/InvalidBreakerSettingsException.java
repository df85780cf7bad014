package io.breaker.test;

/**
 * Settings that would stop the application's start-up; the message is the start-up failure report's
 * description and action.
 */
public class InvalidBreakerSettingsException extends RuntimeException {

    private final String description;
    private final String action;

    InvalidBreakerSettingsException(String description, String action, Throwable cause) {
        super(
                description + System.lineSeparator() + System.lineSeparator() + "Action:" + System.lineSeparator()
                        + System.lineSeparator() + action,
                cause);
        this.description = description;
        this.action = action;
    }

    /** What is wrong, as the start-up report says it. */
    public String getDescription() {
        return description;
    }

    /** What to do, as the start-up report says it. */
    public String getAction() {
        return action;
    }
}
