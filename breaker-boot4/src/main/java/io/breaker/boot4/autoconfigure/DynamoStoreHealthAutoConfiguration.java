package io.breaker.boot4.autoconfigure;

import io.breaker.boot4.actuate.DynamoStoreHealthIndicator;
import io.breaker.dynamodb.DynamoStoreStatus;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code breakerStore} health contributor on Spring Boot 4, when the application shares its
 * breakers through {@code breaker-dynamodb} ({@code management.health.breakerstore.enabled=false} turns
 * it off). The status is breaker-dynamodb's own; only the adapter to Boot 4's health types lives here.
 */
@AutoConfiguration(afterName = "io.breaker.dynamodb.DynamoStoreAutoConfiguration")
@ConditionalOnClass(
        name = {"org.springframework.boot.health.contributor.HealthIndicator", "io.breaker.dynamodb.DynamoStoreStatus"})
@ConditionalOnBean(type = "io.breaker.dynamodb.DynamoStoreStatus")
@ConditionalOnEnabledHealthIndicator("breakerstore")
public class DynamoStoreHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "breakerStoreHealthIndicator")
    public DynamoStoreHealthIndicator breakerStoreHealthIndicator(DynamoStoreStatus status) {
        return new DynamoStoreHealthIndicator(status);
    }
}
