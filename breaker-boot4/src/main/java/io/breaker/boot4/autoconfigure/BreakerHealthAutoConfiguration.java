package io.breaker.boot4.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.boot4.actuate.BreakersHealthIndicator;
import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.autoconfigure.BreakerHealthProperties;
import io.breaker.spring.autoconfigure.BreakersHealthCheckConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The {@code breakers} health contributor on Spring Boot 4, when its health module is on the
 * classpath ({@code management.health.breakers.enabled=false} turns it off). The check is the one
 * the Boot 3 starter uses ({@link BreakersHealthCheckConfiguration}); only the adapter differs.
 */
@AutoConfiguration(afterName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
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
