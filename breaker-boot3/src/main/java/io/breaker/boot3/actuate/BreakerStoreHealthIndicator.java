package io.breaker.boot3.actuate;

import io.breaker.redis.BreakerStoreStatus;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** Adapts {@link BreakerStoreStatus} to Spring Boot 3's health contributor {@code breakerStore}: always UP. */
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
