package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.actuate.BreakersHealthIndicator;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The {@code breakers} health contributor on Spring Boot 3, when Spring Boot Actuator is on the
 * classpath ({@code management.health.breakers.enabled=false} turns it off). Open breakers stay UP
 * unless {@code breakers.health.down-when-open} names them. The check itself is shared with the
 * Boot 4 starter ({@link BreakersHealthCheckConfiguration}); only the adapter to Boot 3's health
 * types lives here.
 */
@AutoConfiguration(afterName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(BreakerRegistry.class)
@EnableConfigurationProperties(BreakerHealthProperties.class)
public class BreakerHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("breakers")
    @Import(BreakersHealthCheckConfiguration.class)
    static class BreakersHealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "breakersHealthIndicator")
        public BreakersHealthIndicator breakersHealthIndicator(BreakersHealth health) {
            return new BreakersHealthIndicator(health);
        }
    }
}
