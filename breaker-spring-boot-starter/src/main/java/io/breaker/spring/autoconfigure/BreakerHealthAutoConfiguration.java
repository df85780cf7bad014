package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.actuate.BreakersHealthIndicator;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code breakers} health contributor, when Spring Boot Actuator is on the classpath
 * ({@code management.health.breakers.enabled=false} turns it off). Open breakers stay UP unless
 * {@code breakers.health.down-when-open} names them.
 */
@AutoConfiguration(afterName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(BreakerRegistry.class)
@EnableConfigurationProperties(BreakerHealthProperties.class)
public class BreakerHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("breakers")
    static class BreakersHealthConfiguration {

        @Bean
        @ConditionalOnMissingBean
        public BreakersHealth breakersHealth(BreakerRegistry registry, BreakerHealthProperties properties) {
            return new BreakersHealth(registry, properties.getDownWhenOpen());
        }

        /** Once every breaker of the start-up exists: each name in down-when-open must be one of them. */
        @Bean
        @ConditionalOnMissingBean(name = "breakersHealthNamesCheck")
        SmartInitializingSingleton breakersHealthNamesCheck(BreakerRegistry registry,
                                                             BreakerHealthProperties properties) {
            return () -> DownWhenOpenNames.check(properties.getDownWhenOpen(), registry);
        }

        @Bean
        @ConditionalOnMissingBean(name = "breakersHealthIndicator")
        public BreakersHealthIndicator breakersHealthIndicator(BreakersHealth health) {
            return new BreakersHealthIndicator(health);
        }
    }
}
