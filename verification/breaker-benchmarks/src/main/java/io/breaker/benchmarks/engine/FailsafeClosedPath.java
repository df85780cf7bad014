package io.breaker.benchmarks.engine;

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
 * Failsafe 3.3.2's CLOSED success path, next to {@link ClosedPath}: one breaker shared by all
 * benchmark threads, configured as close as Failsafe allows ({@link Alike#failsafe}). Failsafe has
 * no slow-call detection, so it has no {@code slowCalls} parameter: read its numbers against our
 * {@code slowCalls=OFF} rows. Two ways to call it, as for the others: through its executor
 * ({@code Failsafe.with(breaker).get(supplier)}), and in two steps ({@code tryAcquirePermit} +
 * {@code recordSuccess}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class FailsafeClosedPath {

    private static final Integer ANSWER = 42;

    @Param
    public Window window;

    private dev.failsafe.CircuitBreaker<Integer> breaker;
    private dev.failsafe.FailsafeExecutor<Integer> executor;

    @Setup
    public void createBreaker() {
        breaker = Alike.failsafe(window, Alike.LONG_WAIT);
        executor = dev.failsafe.Failsafe.with(breaker);
    }

    /** A run that left CLOSED measured something else: fail it rather than report it. */
    @TearDown
    public void checkStillClosed() {
        if (!breaker.isClosed()) {
            throw new IllegalStateException("Failsafe's breaker left CLOSED during the run: " + breaker.getState());
        }
    }

    @Benchmark
    public Integer failsafeGet() {
        return executor.get(() -> ANSWER);
    }

    @Benchmark
    public Integer failsafePermissionAndRecord() {
        if (!breaker.tryAcquirePermit()) {
            throw new IllegalStateException("rejected in CLOSED");
        }
        breaker.recordSuccess();
        return ANSWER;
    }
}
