package io.breaker.redis;

import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The {@code breakerStore} health contributor on Spring Boot 3 (the Boot 4 starter has its own
 * adapter around the same {@link BreakerStoreStatus}), when Spring Boot Actuator is on the classpath and a
 * {@link RedisStateStore} exists ({@code management.health.breakerstore.enabled=false} turns it off).
 * It stays UP during a Redis outage and says whether this instance acts alone.
 *
 * <p>A class of its own rather than a nested configuration of {@link RedisStoreAutoConfiguration}:
 * the store may be the application's own {@link RedisStateStore} bean, and only a configuration
 * ordered after the store's can ask whether one exists.
 */
@AutoConfiguration(after = RedisStoreAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(RedisStateStore.class)
public class RedisStoreHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("breakerstore")
    @Import(StoreStatusConfiguration.class)
    static class BreakerStoreHealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "breakerStoreHealthIndicator")
        public BreakerStoreHealthIndicator breakerStoreHealthIndicator(BreakerStoreStatus status) {
            return new BreakerStoreHealthIndicator(status);
        }
    }
}
