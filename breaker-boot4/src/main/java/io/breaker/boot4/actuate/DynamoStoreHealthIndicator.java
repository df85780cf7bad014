package io.breaker.boot4.actuate;

import io.breaker.dynamodb.DynamoStoreStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Adapts {@link DynamoStoreStatus} to Spring Boot 4's health contributor {@code breakerStore}: always
 * UP, with the table's availability and this instance's clock skew against DynamoDB in the details.
 */
public class DynamoStoreHealthIndicator implements HealthIndicator {

    private final DynamoStoreStatus status;

    public DynamoStoreHealthIndicator(DynamoStoreStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        return Health.up().withDetails(status.check().details()).build();
    }
}
