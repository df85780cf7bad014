package io.breaker.benchmarks.engine;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.benchmarks.engine.Alike.SlowCalls;
import io.breaker.benchmarks.engine.Alike.Window;
import io.breaker.internal.Integration;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counts how often each breaker reads a clock per call, exactly, by handing both libraries counting
 * clocks. One clock read costs about as much as the whole uncontended record on this machine, so this
 * explains most of the CLOSED-path numbers. A plain program:
 * <pre>
 * java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.engine.ClockReads
 * </pre>
 * resilience4j reads time through two seams: the timestamp function that times calls
 * ({@code currentTimestampFunction}) and a {@link Clock} (time window, OPEN state); both are counted.
 */
public final class ClockReads {

    private static final int CALLS = 10_000;
    private static final Supplier<Integer> WORK = () -> 42;
    private static final IOException FAILURE = new IOException("the dependency is down");

    private ClockReads() {}

    public static void main(String[] args) {
        System.out.printf("Clock reads per call (%,d calls each)%n", CALLS);
        for (Window window : Window.values()) {
            for (SlowCalls slowCalls : SlowCalls.values()) {
                BreakerConfig oursConfig = Alike.ours(window, slowCalls, Alike.LONG_WAIT);
                AtomicLong oursReads = new AtomicLong();
                CircuitBreaker ours = CircuitBreaker.of("ours", oursConfig, counting(oursReads));
                AtomicLong theirsReads = new AtomicLong();
                io.github.resilience4j.circuitbreaker.CircuitBreaker theirs = theirs(window, slowCalls, theirsReads);

                oursReads.set(0);
                theirsReads.set(0);
                for (int i = 0; i < CALLS; i++) {
                    ours.execute(WORK);
                    theirs.executeSupplier(WORK);
                }
                report("CLOSED execute / executeSupplier", window, slowCalls, oursReads, theirsReads);

                oursReads.set(0);
                theirsReads.set(0);
                for (int i = 0; i < CALLS; i++) {
                    ours.onSuccess(ours.tryAcquirePermit(), 0L);
                    theirs.tryAcquirePermission();
                    theirs.onSuccess(0L, TimeUnit.NANOSECONDS);
                }
                report("CLOSED permission + record (caller times nothing)", window, slowCalls, oursReads, theirsReads);

                oursReads.set(0);
                theirsReads.set(0);
                for (int i = 0; i < CALLS; i++) {
                    // The caller's own readings, not counted on either side (the counting clock
                    // returns System.nanoTime(), so these are readings of the breaker's clock).
                    long permit = ours.tryAcquirePermit();
                    long start = System.nanoTime();
                    Integration.onSuccess(ours, permit, start, System.nanoTime());
                    theirs.tryAcquirePermission();
                    long theirStart = System.nanoTime();
                    theirs.onSuccess(System.nanoTime() - theirStart, TimeUnit.NANOSECONDS);
                }
                report(
                        "CLOSED permission + record, caller timed (ours given its readings)",
                        window,
                        slowCalls,
                        oursReads,
                        theirsReads);

                // Fresh breakers, so that the failures below reach the failure rate in either window.
                ours = CircuitBreaker.of("ours", oursConfig, counting(oursReads));
                theirs = theirs(window, slowCalls, theirsReads);
                for (int i = 0; i < Alike.MINIMUM_CALLS; i++) {
                    ours.onError(ours.tryAcquirePermit(), 0L, FAILURE);
                    theirs.tryAcquirePermission();
                    theirs.onError(0L, TimeUnit.NANOSECONDS, FAILURE);
                }
                if (ours.getState() != io.breaker.State.OPEN
                        || theirs.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN) {
                    throw new IllegalStateException(
                            "did not trip: ours " + ours.getState() + ", r4j " + theirs.getState());
                }
                oursReads.set(0);
                theirsReads.set(0);
                for (int i = 0; i < CALLS; i++) {
                    ours.tryAcquirePermit();
                    theirs.tryAcquirePermission();
                }
                report("OPEN permission check", window, slowCalls, oursReads, theirsReads);

                oursReads.set(0);
                theirsReads.set(0);
                for (int i = 0; i < CALLS; i++) {
                    try {
                        ours.execute(WORK);
                    } catch (io.breaker.CircuitOpenException expected) {
                        // the rejection under test
                    }
                    try {
                        theirs.executeSupplier(WORK);
                    } catch (CallNotPermittedException expected) {
                        // the rejection under test
                    }
                }
                report("OPEN execute that throws", window, slowCalls, oursReads, theirsReads);
            }
        }
    }

    private static void report(String path, Window window, SlowCalls slowCalls, AtomicLong ours, AtomicLong theirs) {
        System.out.printf(
                "  %-68s %-9s slow calls %-3s  breaker %.2f   resilience4j %.2f%n",
                path, window, slowCalls, (double) ours.get() / CALLS, (double) theirs.get() / CALLS);
    }

    private static NanoClock counting(AtomicLong reads) {
        return () -> {
            reads.incrementAndGet();
            return System.nanoTime();
        };
    }

    private static io.github.resilience4j.circuitbreaker.CircuitBreaker theirs(
            Window window, SlowCalls slowCalls, AtomicLong reads) {
        CircuitBreakerConfig config = Alike.theirs(window, slowCalls, Alike.LONG_WAIT)
                .clock(new CountingClock(reads))
                .currentTimestampFunction(
                        clock -> {
                            reads.incrementAndGet();
                            return System.nanoTime();
                        },
                        TimeUnit.NANOSECONDS)
                .build();
        return io.github.resilience4j.circuitbreaker.CircuitBreaker.of("r4j", config);
    }

    /** The system UTC clock, counting its reads. */
    private static final class CountingClock extends Clock {

        private final AtomicLong reads;

        CountingClock(AtomicLong reads) {
            this.reads = reads;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("not needed here");
        }

        @Override
        public long millis() {
            reads.incrementAndGet();
            return System.currentTimeMillis();
        }

        @Override
        public Instant instant() {
            reads.incrementAndGet();
            return Instant.now();
        }
    }
}
