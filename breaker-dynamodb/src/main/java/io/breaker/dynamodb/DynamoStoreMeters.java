package io.breaker.dynamodb;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The store's meters, with the Redis store's names and tag key, tagged {@code store=dynamodb}, so that
 * the shipped dashboard and alerts read either store: {@code breaker.store.failures},
 * {@code breaker.store.timeouts}, {@code breaker.store.available}, {@code breaker.store.acting.alone} and
 * {@code breaker.store.latency}. The first four read the store when scraped; the latency timer is
 * recorded by the store's command threads as each table operation ends, never on the call path.
 */
public final class DynamoStoreMeters implements MeterBinder {

    private static final String TAG = "store";
    private static final String STORE = "dynamodb";

    private final DynamoStateStore store;

    public DynamoStoreMeters(DynamoStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("breaker.store.failures", store, DynamoStateStore::getFailureCount)
                .description("DynamoDB operations of the shared breaker state that got no answer "
                        + "(timed out, failed, or skipped while the table was down)")
                .tag(TAG, STORE)
                .register(registry);
        FunctionCounter.builder("breaker.store.timeouts", store, DynamoStateStore::getTimeoutCount)
                .description("DynamoDB operations a calling thread stopped waiting for after the store timeout; "
                        + "the call went on with the state its instance had")
                .tag(TAG, STORE)
                .register(registry);
        Gauge.builder("breaker.store.available", store, s -> s.isAvailable() ? 1 : 0)
                .description("1 while the table answers the shared breaker state's operations, 0 during an outage")
                .tag(TAG, STORE)
                .register(registry);
        Gauge.builder("breaker.store.acting.alone", store, DynamoStoreMeters::actingAlone)
                .description("1 while the table is unavailable and failure-mode is protect-locally: this "
                        + "instance's breakers decide on its own calls only; 0 otherwise")
                .tag(TAG, STORE)
                .register(registry);
        Timer latency = Timer.builder("breaker.store.latency")
                .description("Duration of each table operation of the shared breaker state (one request, or a "
                        + "few when a condition failed), answered or failed, including the ones a caller stopped "
                        + "waiting for")
                .tag(TAG, STORE)
                .register(registry);
        store.onOperationTimed(nanos -> latency.record(nanos, TimeUnit.NANOSECONDS));
    }

    /** As {@link DynamoStoreStatus.Report#actingAlone()}: the table is unavailable and the mode is protect-locally. */
    private static double actingAlone(DynamoStateStore store) {
        return !store.isAvailable() && store.getSettings().failureMode() == DynamoFailureMode.PROTECT_LOCALLY ? 1 : 0;
    }
}
