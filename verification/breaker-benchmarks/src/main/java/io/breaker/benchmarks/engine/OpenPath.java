package io.breaker.benchmarks.engine;

import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.benchmarks.engine.Alike.SlowCalls;
import io.breaker.benchmarks.engine.Alike.Window;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The OPEN path: a breaker that tripped (on recorded failures, like in production) and waits for an
 * hour, asked for permission or made to throw: ours, resilience4j and Failsafe. Count window of 100,
 * slow-call detection on (Failsafe has none). One breaker of each kind is shared by all benchmark
 * threads; the thread count is set by {@link OpenOneThread}, {@link OpenTwoThreads} and
 * {@link OpenFourThreads}.
 *
 * <p>The throwing benchmarks catch the rejection and return it, so it escapes and its allocation is
 * counted, as it is when a caller keeps or logs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class OpenPath {

    private static final Supplier<Integer> WORK = () -> {
        throw new AssertionError("the protected code ran while the breaker was OPEN");
    };

    private CircuitBreaker breaker;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4j;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jNoStackTrace;
    private dev.failsafe.CircuitBreaker<Integer> failsafe;
    private dev.failsafe.FailsafeExecutor<Integer> failsafeExecutor;

    @Setup
    public void createAndTripBreakers() {
        breaker = CircuitBreaker.of("ours", Alike.ours(Window.COUNT_100, SlowCalls.ON, Alike.LONG_WAIT));
        r4j = io.github.resilience4j.circuitbreaker.CircuitBreaker.of(
                "r4j", Alike.theirsDefault(Window.COUNT_100, SlowCalls.ON, Alike.LONG_WAIT));
        CircuitBreakerConfig noStackTrace = Alike.theirs(Window.COUNT_100, SlowCalls.ON, Alike.LONG_WAIT)
                .writableStackTraceEnabled(false)
                .build();
        r4jNoStackTrace = io.github.resilience4j.circuitbreaker.CircuitBreaker.of("r4j-no-stack-trace", noStackTrace);
        IOException failure = new IOException("the dependency is down");
        for (int i = 0; i < Alike.MINIMUM_CALLS; i++) {
            breaker.onError(breaker.tryAcquirePermit(), 0L, failure);
            for (io.github.resilience4j.circuitbreaker.CircuitBreaker theirs :
                    new io.github.resilience4j.circuitbreaker.CircuitBreaker[] {r4j, r4jNoStackTrace}) {
                theirs.tryAcquirePermission();
                theirs.onError(0L, TimeUnit.NANOSECONDS, failure);
            }
        }
        failsafe = Alike.failsafe(Window.COUNT_100, Alike.LONG_WAIT);
        failsafeExecutor = dev.failsafe.Failsafe.with(failsafe);
        Alike.tripFailsafe(failsafe);
        checkStillOpen();
    }

    /** A run where a breaker was not OPEN measured something else: fail it rather than report it. */
    @TearDown
    public void checkStillOpen() {
        if (breaker.getState() != io.breaker.State.OPEN
                || r4j.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN
                || r4jNoStackTrace.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN
                || !failsafe.isOpen()) {
            throw new IllegalStateException("A breaker is not OPEN: ours " + breaker.getState()
                    + ", r4j " + r4j.getState() + ", r4j without stack trace " + r4jNoStackTrace.getState()
                    + ", Failsafe " + failsafe.getState());
        }
    }

    @Benchmark
    public long breakerTryAcquirePermission() {
        return breaker.tryAcquirePermit();
    }

    @Benchmark
    public boolean r4jTryAcquirePermission() {
        return r4j.tryAcquirePermission();
    }

    @Benchmark
    public Object breakerExecuteRejected() {
        try {
            return breaker.execute(WORK);
        } catch (CircuitOpenException rejected) {
            return rejected;
        }
    }

    @Benchmark
    public Object r4jExecuteSupplierRejected() {
        try {
            return r4j.executeSupplier(WORK);
        } catch (CallNotPermittedException rejected) {
            return rejected;
        }
    }

    /** resilience4j with {@code writableStackTraceEnabled(false)}, for reference (its default fills the trace). */
    @Benchmark
    public Object r4jNoStackTraceExecuteSupplierRejected() {
        try {
            return r4jNoStackTrace.executeSupplier(WORK);
        } catch (CallNotPermittedException rejected) {
            return rejected;
        }
    }

    @Benchmark
    public boolean failsafeTryAcquirePermit() {
        return failsafe.tryAcquirePermit();
    }

    @Benchmark
    public Object failsafeGetRejected() {
        try {
            return failsafeExecutor.get(WORK::get);
        } catch (dev.failsafe.CircuitBreakerOpenException rejected) {
            return rejected;
        }
    }
}
