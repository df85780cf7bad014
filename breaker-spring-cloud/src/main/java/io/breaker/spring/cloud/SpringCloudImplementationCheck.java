package io.breaker.spring.cloud;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.util.List;

/**
 * Stops start-up when resilience4j's Spring Cloud CircuitBreaker implementation is configured next to
 * breaker's: both define a {@code CircuitBreakerFactory} only when none exists, so which one an
 * application got would depend on the order of auto-configurations. Resilience4j's is configured
 * unless its auto-configuration is excluded or {@code spring.cloud.circuitbreaker.resilience4j.enabled}
 * is {@code false}; {@link SpringCloudConflictFailureAnalyzer} says how to choose.
 */
final class SpringCloudImplementationCheck {

    static final String RESILIENCE4J_FACTORY =
            "org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JCircuitBreakerFactory";
    static final String RESILIENCE4J_ENABLED = "spring.cloud.circuitbreaker.resilience4j.enabled";
    static final List<String> RESILIENCE4J_AUTO_CONFIGURATIONS = List.of(
            "org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JAutoConfiguration",
            "org.springframework.cloud.circuitbreaker.resilience4j.ReactiveResilience4JAutoConfiguration");

    private SpringCloudImplementationCheck() {}

    static SpringCloudImplementationCheck check(Environment environment, ConfigurableListableBeanFactory beanFactory) {
        if (ClassUtils.isPresent(RESILIENCE4J_FACTORY, beanFactory.getBeanClassLoader())
                && environment.getProperty(RESILIENCE4J_ENABLED, Boolean.class, true)
                && !excluded(beanFactory)) {
            throw new ConflictingCircuitBreakerImplementationsException();
        }
        return new SpringCloudImplementationCheck();
    }

    /** Whether the application excluded resilience4j's auto-configurations (by property or annotation). */
    private static boolean excluded(ConfigurableListableBeanFactory beanFactory) {
        return ConditionEvaluationReport.get(beanFactory).getExclusions().containsAll(RESILIENCE4J_AUTO_CONFIGURATIONS);
    }
}
