package io.breaker.redis;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** Adapts {@link BreakerStoreStatus} to Spring Boot's health contributor {@code breakerStore}: always UP. */
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
