package io.breaker.redis;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a bad {@code breakers.store.*} value the way Spring Boot reports its own: what, and what to do. */
class InvalidStorePropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidStorePropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidStorePropertyException cause) {
        return new FailureAnalysis(
                "The shared breaker state cannot start: property '" + cause.getProperty() + "' has the value '"
                        + cause.getValue() + "'.",
                "Set " + cause.getProperty() + " to " + cause.getAllowed() + ".",
                cause);
    }
}
