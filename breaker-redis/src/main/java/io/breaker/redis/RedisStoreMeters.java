package io.breaker.redis;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The store's meters, each tagged {@code store=redis}: {@code breaker.store.failures},
 * {@code breaker.store.timeouts}, {@code breaker.store.available}, {@code breaker.store.acting.alone} and
 * {@code breaker.store.latency}. The first four read the store when scraped; the latency timer is
 * recorded by the store's command threads as each Redis command ends, never on the call path.
 */
public final class RedisStoreMeters implements MeterBinder {

    private final RedisStateStore store;

    public RedisStoreMeters(RedisStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("breaker.store.failures", store, RedisStateStore::getFailureCount)
                .description("Redis operations of the shared breaker state that got no answer "
                        + "(timed out, failed, or skipped while Redis was down)")
                .tag("store", "redis")
                .register(registry);
        FunctionCounter.builder("breaker.store.timeouts", store, RedisStateStore::getTimeoutCount)
                .description("Redis operations a calling thread stopped waiting for after the store timeout; "
                        + "the call went on with the state its instance had")
                .tag("store", "redis")
                .register(registry);
        Gauge.builder("breaker.store.available", store, s -> s.isAvailable() ? 1 : 0)
                .description("1 while Redis answers the shared breaker state's operations, 0 during an outage")
                .tag("store", "redis")
                .register(registry);
        Gauge.builder("breaker.store.acting.alone", store, s -> BreakerStoreStatus.isActingAlone(s) ? 1 : 0)
                .description("1 while Redis is unavailable and failure-mode is protect-locally: this "
                        + "instance's breakers decide on its own calls only; 0 otherwise")
                .tag("store", "redis")
                .register(registry);
        Timer latency = Timer.builder("breaker.store.latency")
                .description("Duration of each Redis command of the shared breaker state, answered or failed, "
                        + "including the ones a caller stopped waiting for")
                .tag("store", "redis")
                .register(registry);
        store.onCommandTimed(nanos -> latency.record(nanos, TimeUnit.NANOSECONDS));
    }
}
