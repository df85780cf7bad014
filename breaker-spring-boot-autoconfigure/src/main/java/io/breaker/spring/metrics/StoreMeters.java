package io.breaker.spring.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The meters of a store that shares breaker state across a fleet, under one set of names for every store
 * so that the shipped dashboard and alerts read any of them, each tagged {@code store=<kind>}:
 * {@code breaker.store.failures}, {@code breaker.store.timeouts}, {@code breaker.store.available},
 * {@code breaker.store.acting.alone} and {@code breaker.store.latency}. The first four read the store when
 * scraped; the latency timer is recorded by the store's own threads as each operation ends, never on the
 * call path.
 */
public final class StoreMeters<S> implements MeterBinder {

    /**
     * How the meters read a store of type {@code S}; functions of the store, which the meters keep, while
     * Micrometer holds the store itself only weakly, as it does every measured object.
     *
     * @param failureCount  operations that got no answer (timed out, failed, or skipped while the store was down)
     * @param timeoutCount  operations a calling thread stopped waiting for after the store timeout
     * @param available     whether the store answers
     * @param actingAlone   whether the store is unavailable and its failure mode is protect-locally
     * @param timed         adds a receiver of each operation's duration in nanoseconds, called on the thread
     *                      that ran it
     */
    public record Readings<S>(
            ToLongFunction<S> failureCount,
            ToLongFunction<S> timeoutCount,
            Predicate<S> available,
            Predicate<S> actingAlone,
            BiConsumer<S, LongConsumer> timed) {

        public Readings {
            Objects.requireNonNull(failureCount, "failureCount");
            Objects.requireNonNull(timeoutCount, "timeoutCount");
            Objects.requireNonNull(available, "available");
            Objects.requireNonNull(actingAlone, "actingAlone");
            Objects.requireNonNull(timed, "timed");
        }
    }

    private final S store;
    private final Readings<S> readings;
    private final String kind;
    private final String server;
    private final String operation;

    /**
     * @param kind      the {@code store} tag's value ({@code redis})
     * @param server    what the descriptions call the store ({@code Redis}, {@code the table})
     * @param operation what one timed operation is ({@code Redis command})
     */
    public StoreMeters(S store, Readings<S> readings, String kind, String server, String operation) {
        this.store = Objects.requireNonNull(store, "store");
        this.readings = Objects.requireNonNull(readings, "readings");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.server = Objects.requireNonNull(server, "server");
        this.operation = Objects.requireNonNull(operation, "operation");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        ToLongFunction<S> failures = readings.failureCount();
        ToLongFunction<S> timeouts = readings.timeoutCount();
        Predicate<S> available = readings.available();
        Predicate<S> alone = readings.actingAlone();
        FunctionCounter.builder("breaker.store.failures", store, s -> failures.applyAsLong(s))
                .description("Operations on " + server + " of the shared breaker state that got no answer "
                        + "(timed out, failed, or skipped while " + server + " was down)")
                .tag("store", kind)
                .register(registry);
        FunctionCounter.builder("breaker.store.timeouts", store, s -> timeouts.applyAsLong(s))
                .description("Operations on " + server + " a calling thread stopped waiting for after the store"
                        + " timeout; the call went on with the state its instance had")
                .tag("store", kind)
                .register(registry);
        Gauge.builder("breaker.store.available", store, s -> available.test(s) ? 1 : 0)
                .description(
                        "1 while " + server + " answers the shared breaker state's operations, 0 during an" + " outage")
                .tag("store", kind)
                .register(registry);
        Gauge.builder("breaker.store.acting.alone", store, s -> alone.test(s) ? 1 : 0)
                .description("1 while " + server + " is unavailable and failure-mode is protect-locally: this "
                        + "instance's breakers decide on its own calls only; 0 otherwise")
                .tag("store", kind)
                .register(registry);
        Timer latency = Timer.builder("breaker.store.latency")
                .description("Duration of each " + operation + " of the shared breaker state, answered or failed,"
                        + " including the ones a caller stopped waiting for")
                .tag("store", kind)
                .register(registry);
        readings.timed().accept(store, nanos -> latency.record(nanos, TimeUnit.NANOSECONDS));
    }
}
