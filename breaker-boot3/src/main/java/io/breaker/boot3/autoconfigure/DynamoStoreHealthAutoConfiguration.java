package io.breaker.boot3.autoconfigure;

import io.breaker.boot3.actuate.DynamoStoreHealthIndicator;
import io.breaker.dynamodb.DynamoStoreStatus;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code breakerStore} health contributor on Spring Boot 3, when the application shares its
 * breakers through {@code breaker-dynamodb} ({@code management.health.breakerstore.enabled=false} turns
 * it off). The status is breaker-dynamodb's own; only the adapter to Boot 3's health types lives here.
 */
@AutoConfiguration(afterName = "io.breaker.dynamodb.DynamoStoreAutoConfiguration")
@ConditionalOnClass(
        name = {"org.springframework.boot.actuate.health.HealthIndicator", "io.breaker.dynamodb.DynamoStoreStatus"})
@ConditionalOnBean(type = "io.breaker.dynamodb.DynamoStoreStatus")
@ConditionalOnEnabledHealthIndicator("breakerstore")
public class DynamoStoreHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "breakerStoreHealthIndicator")
    public DynamoStoreHealthIndicator breakerStoreHealthIndicator(DynamoStoreStatus status) {
        return new DynamoStoreHealthIndicator(status);
    }
}
