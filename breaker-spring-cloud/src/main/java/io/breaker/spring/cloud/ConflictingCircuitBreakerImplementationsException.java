package io.breaker.spring.cloud;

/**
 * Two Spring Cloud CircuitBreaker implementations would be configured: breaker's and resilience4j's.
 * Stops start-up; {@link SpringCloudConflictFailureAnalyzer} explains how to choose.
 */
public class ConflictingCircuitBreakerImplementationsException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    ConflictingCircuitBreakerImplementationsException() {
        super("Two Spring Cloud CircuitBreaker implementations are configured: breaker's"
                + " (io.breaker:breaker-spring-cloud) and resilience4j's"
                + " (org.springframework.cloud:spring-cloud-circuitbreaker-resilience4j)");
    }
}
