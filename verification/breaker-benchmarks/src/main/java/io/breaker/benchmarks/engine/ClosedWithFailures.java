package io.breaker.benchmarks.engine;

import io.breaker.CircuitBreaker;
import io.breaker.benchmarks.engine.Alike.SlowCalls;
import io.breaker.benchmarks.engine.Alike.Window;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The CLOSED path of a dependency that fails now and then: one call in {@link #oneIn} fails (each
 * thread counts its own calls), far below the 50% that trips, so the count window of 100 always
 * holds a failure or two. {@link ClosedPath} measures the healthy case, where every call succeeds
 * and the window is full of successes; here the window is never clean, so every call goes through
 * the ring. Two steps (permission, then the outcome), the three breakers configured alike
 * ({@link Alike}); the protected work is nothing. The thread count is set by the concrete subclasses
 * {@link ClosedWithFailuresOneThread}, {@link ClosedWithFailuresTwoThreads} and
 * {@link ClosedWithFailuresFourThreads}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class ClosedWithFailures {

    /** Preallocated: the benchmark measures the breakers, not building an exception. */
    private static final RuntimeException FAILURE = new IllegalStateException("the dependency failed");

    @Param({"50"})
    public int oneIn;

    private CircuitBreaker breaker;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4j;
    private dev.failsafe.CircuitBreaker<Integer> failsafe;

    /** Each benchmark thread's own count of its calls. */
    @State(Scope.Thread)
    public static class Caller {
        int calls;

        boolean nextFails(int oneIn) {
            return ++calls % oneIn == 0;
        }
    }

    @Setup
    public void createBreakers() {
        breaker = CircuitBreaker.of("ours", Alike.ours(Window.COUNT_100, SlowCalls.OFF, Alike.LONG_WAIT));
        r4j = io.github.resilience4j.circuitbreaker.CircuitBreaker.of(
                "r4j", Alike.theirsDefault(Window.COUNT_100, SlowCalls.OFF, Alike.LONG_WAIT));
        failsafe = Alike.failsafe(Window.COUNT_100, Alike.LONG_WAIT);
    }

    /** A run that left CLOSED measured something else: fail it rather than report it. */
    @TearDown
    public void checkStillClosed() {
        if (breaker.getState() != io.breaker.State.CLOSED
                || r4j.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED
                || !failsafe.isClosed()) {
            throw new IllegalStateException("A breaker left CLOSED during the run: ours " + breaker.getState()
                    + ", r4j " + r4j.getState() + ", Failsafe " + failsafe.getState());
        }
    }

    @Benchmark
    public boolean breakerPermissionAndRecord(Caller caller) {
        long permit = breaker.tryAcquirePermit();
        if (permit == CircuitBreaker.NO_PERMIT) {
            throw new IllegalStateException("rejected in CLOSED");
        }
        if (caller.nextFails(oneIn)) {
            return breaker.onError(permit, 0L, FAILURE);
        }
        breaker.onSuccess(permit, 0L);
        return true;
    }

    @Benchmark
    public boolean r4jPermissionAndRecord(Caller caller) {
        if (!r4j.tryAcquirePermission()) {
            throw new IllegalStateException("rejected in CLOSED");
        }
        if (caller.nextFails(oneIn)) {
            r4j.onError(0L, TimeUnit.NANOSECONDS, FAILURE);
            return false;
        }
        r4j.onSuccess(0L, TimeUnit.NANOSECONDS);
        return true;
    }

    @Benchmark
    public boolean failsafePermissionAndRecord(Caller caller) {
        if (!failsafe.tryAcquirePermit()) {
            throw new IllegalStateException("rejected in CLOSED");
        }
        if (caller.nextFails(oneIn)) {
            failsafe.recordFailure();
            return false;
        }
        failsafe.recordSuccess();
        return true;
    }
}
