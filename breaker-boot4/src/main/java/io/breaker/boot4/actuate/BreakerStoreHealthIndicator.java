package io.breaker.boot4.actuate;

import io.breaker.redis.BreakerStoreStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** Adapts {@link BreakerStoreStatus} to Spring Boot 4's health contributor {@code breakerStore}: always UP. */
public class BreakerStoreHealthIndicator implements HealthIndicator {

    private final BreakerStoreStatus status;

    public BreakerStoreHealthIndicator(BreakerStoreStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        return Health.up().withDetails(status.check().details()).build();
    }
}
