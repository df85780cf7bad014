package io.breaker.boot3.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.boot3.actuate.BreakersHealthIndicator;
import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.autoconfigure.BreakerHealthProperties;
import io.breaker.spring.autoconfigure.BreakersHealthCheckConfiguration;
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
 * classpath ({@code management.health.breakers.enabled=false} turns it off). The check is the one
 * the Boot 4 adapter uses ({@link BreakersHealthCheckConfiguration}); only the adapter differs.
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
