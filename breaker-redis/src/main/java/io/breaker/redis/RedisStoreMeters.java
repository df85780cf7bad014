package io.breaker.redis;

import io.breaker.spring.metrics.StoreMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Objects;

/** The store's meters ({@link StoreMeters}), tagged {@code store=redis}; the latency timer times each Redis command. */
public final class RedisStoreMeters implements MeterBinder {

    private static final StoreMeters.Readings<RedisStateStore> READINGS = new StoreMeters.Readings<>(
            RedisStateStore::getFailureCount,
            RedisStateStore::getTimeoutCount,
            RedisStateStore::isAvailable,
            BreakerStoreStatus::isActingAlone,
            RedisStateStore::onCommandTimed);

    private final RedisStateStore store;

    public RedisStoreMeters(RedisStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        new StoreMeters<>(store, READINGS, "redis", "Redis", "Redis command").bindTo(registry);
    }
}
