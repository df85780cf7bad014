package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.actuate.BreakerOperations;
import io.breaker.spring.actuate.BreakerTransitionHistory;
import io.breaker.spring.actuate.BreakersEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * The {@code breakers} actuator endpoint, when Spring Boot Actuator is on the classpath and the
 * endpoint is available (exposed and not disabled).
 */
@AutoConfiguration(afterName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(BreakerRegistry.class)
public class BreakerEndpointAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(endpoint = BreakersEndpoint.class)
    static class BreakersEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        public BreakerTransitionHistory breakerTransitionHistory(BreakerRegistry registry) {
            return BreakerTransitionHistory.bind(registry, BreakerTransitionHistory.DEFAULT_SIZE);
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakerOperations breakerOperations(BreakerRegistry registry, BreakerTransitionHistory history) {
            return new BreakerOperations(registry, history, Clock.systemUTC());
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakersEndpoint breakersEndpoint(BreakerOperations operations) {
            return new BreakersEndpoint(operations);
        }
    }
}
