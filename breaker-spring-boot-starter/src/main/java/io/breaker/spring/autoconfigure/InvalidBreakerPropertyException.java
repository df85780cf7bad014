package io.breaker.spring.autoconfigure;

/**
 * A {@code breakers.*} property holds a value the breaker cannot use. Stops start-up; the
 * {@link BreakerFailureAnalyzer} turns it into a description and an action.
 */
public class InvalidBreakerPropertyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final String value;
    private final String problem;
    private final String allowed;

    /**
     * @param property full property path, e.g. {@code breakers.instances.wholesaler.failure-rate-threshold}
     * @param value    the value as configured
     * @param problem  what is wrong with it
     * @param allowed  what would be accepted
     */
    public InvalidBreakerPropertyException(String property, String value, String problem, String allowed,
                                           Throwable cause) {
        super(property + " = '" + value + "' is invalid: " + problem + "; allowed: " + allowed, cause);
        this.property = property;
        this.value = value;
        this.problem = problem;
        this.allowed = allowed;
    }

    /** Full property path. */
    public String getProperty() {
        return property;
    }

    /** The value as configured. */
    public String getValue() {
        return value;
    }

    /** What is wrong with the value. */
    public String getProblem() {
        return problem;
    }

    /** What would be accepted. */
    public String getAllowed() {
        return allowed;
    }
}
