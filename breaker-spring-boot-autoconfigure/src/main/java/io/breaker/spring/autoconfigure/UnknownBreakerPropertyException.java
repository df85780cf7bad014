package io.breaker.spring.autoconfigure;

import io.breaker.spring.config.InvalidBreakerPropertyException;
import org.jspecify.annotations.Nullable;

/**
 * A key under {@code breakers.} that no breaker module reads: a misspelt setting or section, which
 * binding alone would silently ignore. Carries the nearest key that is read.
 */
public class UnknownBreakerPropertyException extends InvalidBreakerPropertyException {

    private static final long serialVersionUID = 1L;

    private final String nearest;
    private final @Nullable String environmentVariable;

    /**
     * @param property            the key as found
     * @param value               its value
     * @param nearest             the nearest key a module reads
     * @param environmentVariable the environment variable the key came from, or {@code null}
     */
    public UnknownBreakerPropertyException(
            String property, String value, String nearest, @Nullable String environmentVariable) {
        super(
                property,
                value,
                "no breaker module reads this key",
                "removed or corrected (the nearest key that is read: " + nearest + ")",
                null);
        this.nearest = nearest;
        this.environmentVariable = environmentVariable;
    }

    /** The nearest key a module reads, as a property. */
    public String getNearest() {
        return nearest;
    }

    /** The environment variable the key came from, or {@code null} when it came from elsewhere. */
    public @Nullable String getEnvironmentVariable() {
        return environmentVariable;
    }
}
