package io.breaker.spring.config;

import io.breaker.InvalidSettingException;
import org.jspecify.annotations.Nullable;

/**
 * A {@code breakers.*} property holds a value the breakers cannot use. Stops start-up; the starter's
 * {@code BreakerFailureAnalyzer} turns it into a description and an action. Every breaker module
 * reports a bad property with this type (or a subtype), so that one analyzer explains them all.
 */
public class InvalidBreakerPropertyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final String value;
    private final String problem;
    private final String allowed;

    /**
     * @param property full property path, e.g. {@code breakers.instances.wholesaler.failure-rate-threshold}
     * @param value    the value as configured (as a user writes it)
     * @param problem  what is wrong with it, or empty when "not allowed" says it all
     * @param allowed  what would be accepted, as a phrase that follows "must be"
     */
    public InvalidBreakerPropertyException(
            String property, String value, String problem, String allowed, @Nullable Throwable cause) {
        super(
                property + " must be " + allowed + ", was " + value + (problem.isEmpty() ? "" : " (" + problem + ")"),
                cause);
        this.property = property;
        this.value = value;
        this.problem = problem;
        this.allowed = allowed;
    }

    /**
     * A value the core refused, reported as the property at {@code property} (at start-up, and for a
     * change at runtime).
     */
    public static InvalidBreakerPropertyException of(String property, InvalidSettingException refused) {
        return new InvalidBreakerPropertyException(
                property,
                PropertyValues.of(refused.getValue()),
                "it is outside the allowed range",
                PropertyValues.inPropertyTerms(refused.getAllowed()),
                refused);
    }

    /** Full property path. */
    public String getProperty() {
        return property;
    }

    /** The value as configured. */
    public String getValue() {
        return value;
    }

    /** What is wrong with the value; empty when the allowed values say it all. */
    public String getProblem() {
        return problem;
    }

    /** What would be accepted. */
    public String getAllowed() {
        return allowed;
    }
}
