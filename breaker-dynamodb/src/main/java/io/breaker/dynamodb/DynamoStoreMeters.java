package io.breaker.dynamodb;

import io.breaker.spring.metrics.StoreMeters;
import io.breaker.spring.store.StoreFailureMode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Objects;

/**
 * The store's meters ({@link StoreMeters}: the Redis store's names, so that the shipped dashboard and alerts
 * read either store), tagged {@code store=dynamodb}; the latency timer times each table operation.
 */
public final class DynamoStoreMeters implements MeterBinder {

    private static final StoreMeters.Readings<DynamoStateStore> READINGS = new StoreMeters.Readings<>(
            DynamoStateStore::getFailureCount,
            DynamoStateStore::getTimeoutCount,
            DynamoStateStore::isAvailable,
            DynamoStoreMeters::actingAlone,
            DynamoStateStore::onOperationTimed);

    private final DynamoStateStore store;

    public DynamoStoreMeters(DynamoStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        new StoreMeters<>(
                        store,
                        READINGS,
                        "dynamodb",
                        "the table",
                        "table operation (one request, or a few when a condition failed)")
                .bindTo(registry);
    }

    /** As {@link DynamoStoreStatus.Report#actingAlone()}: the table is unavailable and the mode is protect-locally. */
    private static boolean actingAlone(DynamoStateStore store) {
        return !store.isAvailable() && store.getSettings().failureMode() == StoreFailureMode.PROTECT_LOCALLY;
    }
}
