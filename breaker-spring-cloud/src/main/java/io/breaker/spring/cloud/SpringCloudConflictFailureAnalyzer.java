package io.breaker.spring.cloud;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains {@link ConflictingCircuitBreakerImplementationsException}: which two, and how to keep one. */
public class SpringCloudConflictFailureAnalyzer
        extends AbstractFailureAnalyzer<ConflictingCircuitBreakerImplementationsException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConflictingCircuitBreakerImplementationsException cause) {
        return new FailureAnalysis(
                "Two Spring Cloud CircuitBreaker implementations are on the classpath: breaker's"
                        + " (io.breaker:breaker-spring-cloud) and resilience4j's"
                        + " (org.springframework.cloud:spring-cloud-circuitbreaker-resilience4j). Each defines the"
                        + " CircuitBreakerFactory only when none exists, so which one OpenFeign, Gateway and"
                        + " your code would get depends on the order of auto-configurations.",
                "Keep one. To use breaker's: remove spring-cloud-starter-circuitbreaker-resilience4j, or set "
                        + SpringCloudImplementationCheck.RESILIENCE4J_ENABLED + "=false. To keep resilience4j's:"
                        + " remove io.breaker:breaker-spring-cloud, or set spring.autoconfigure.exclude="
                        + BreakerSpringCloudAutoConfiguration.class.getName() + ".",
                cause);
    }
}
