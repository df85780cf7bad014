package io.breaker.boot3.autoconfigure;

import io.breaker.boot3.actuate.BreakerStoreHealthIndicator;
import io.breaker.redis.BreakerStoreStatus;
import io.breaker.redis.StoreStatusConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The {@code breakerStore} health contributor on Spring Boot 3, when the application has
 * {@code breaker-redis} and a Redis store is in use ({@code management.health.breakerstore.enabled=false}
 * turns it off). The status is breaker-redis's own ({@link StoreStatusConfiguration}); only the
 * adapter to Boot 3's health types lives here.
 */
@AutoConfiguration(afterName = "io.breaker.redis.RedisStoreAutoConfiguration")
@ConditionalOnClass(
        name = {"org.springframework.boot.actuate.health.HealthIndicator", "io.breaker.redis.RedisStateStore"})
@ConditionalOnBean(type = "io.breaker.redis.RedisStateStore")
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
