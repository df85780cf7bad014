package io.breaker.benchmarks.engine;

import io.breaker.CircuitBreaker;
import io.breaker.benchmarks.engine.Alike.SlowCalls;
import io.breaker.benchmarks.engine.Alike.Window;
import io.breaker.internal.Integration;
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
import java.util.function.Supplier;

/**
 * The CLOSED success path, per call, ours against resilience4j configured alike. One breaker of each
 * kind is shared by all benchmark threads ({@link Scope#Benchmark}); the thread count is set by the
 * concrete subclasses {@link ClosedOneThread}, {@link ClosedTwoThreads} and {@link ClosedFourThreads}.
 * Failsafe, which has no slow-call detection, is measured by {@link FailsafeClosedPath}.
 *
 * <p>Two ways to call each breaker:
 * <ul>
 *   <li>{@code *Execute*}: the one-call API, {@code execute(Supplier)} against {@code executeSupplier};</li>
 *   <li>{@code *PermissionAndRecord}: the two-step API an integration uses, permission then record.
 *       The benchmark times the call itself, as an integration would, only when slow-call detection is
 *       on (both libraries are then given the measured duration; otherwise both are given 0).</li>
 *   <li>{@code breakerPermissionAndRecordReadings}: the same, with the start and end readings given
 *       to ours instead of the duration ({@code Integration.onSuccess}), as the Spring aspect does;
 *       resilience4j has no such variant.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class ClosedPath {

    private static final Integer ANSWER = 42;
    /** The protected work: as cheap as possible, so the breaker's own cost shows. */
    private static final Supplier<Integer> WORK = () -> ANSWER;

    @Param
    public Window window;

    @Param
    public SlowCalls slowCalls;

    private CircuitBreaker breaker;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4j;
    private boolean timed;

    @Setup
    public void createBreakers() {
        breaker = CircuitBreaker.of("ours", Alike.ours(window, slowCalls, Alike.LONG_WAIT));
        r4j = io.github.resilience4j.circuitbreaker.CircuitBreaker.of(
                "r4j", Alike.theirsDefault(window, slowCalls, Alike.LONG_WAIT));
        timed = slowCalls == SlowCalls.ON;
    }

    /** A run that left CLOSED measured something else: fail it rather than report it. */
    @TearDown
    public void checkStillClosed() {
        if (breaker.getState() != io.breaker.State.CLOSED
                || r4j.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED) {
            throw new IllegalStateException(
                    "A breaker left CLOSED during the run: ours " + breaker.getState() + ", r4j " + r4j.getState());
        }
    }

    @Benchmark
    public Integer breakerExecute() {
        return breaker.execute(WORK);
    }

    @Benchmark
    public Integer r4jExecuteSupplier() {
        return r4j.executeSupplier(WORK);
    }

    @Benchmark
    public Integer breakerPermissionAndRecord() {
        long permit = admitted();
        if (timed) {
            long start = System.nanoTime();
            Integer result = WORK.get();
            breaker.onSuccess(permit, System.nanoTime() - start);
            return result;
        }
        Integer result = WORK.get();
        breaker.onSuccess(permit, 0L);
        return result;
    }

    /**
     * The two-step path as the Spring starter's aspect takes it: a timed call gives the breaker its
     * start and end readings ({@code Integration.onSuccess}), so a time window files the outcome under
     * the end reading instead of reading the clock again. Untimed, it is {@link #breakerPermissionAndRecord}.
     */
    @Benchmark
    public Integer breakerPermissionAndRecordReadings() {
        if (!timed) {
            return breakerPermissionAndRecord();
        }
        long permit = admitted();
        long start = System.nanoTime();
        Integer result = WORK.get();
        Integration.onSuccess(breaker, permit, start, System.nanoTime());
        return result;
    }

    /** A permit of our breaker, which is CLOSED for the whole run. */
    private long admitted() {
        long permit = breaker.tryAcquirePermit();
        if (permit == CircuitBreaker.NO_PERMIT) {
            throw new IllegalStateException("rejected in CLOSED");
        }
        return permit;
    }

    @Benchmark
    public Integer r4jPermissionAndRecord() {
        if (!r4j.tryAcquirePermission()) {
            throw new IllegalStateException("rejected in CLOSED");
        }
        if (timed) {
            long start = System.nanoTime();
            Integer result = WORK.get();
            r4j.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return result;
        }
        Integer result = WORK.get();
        r4j.onSuccess(0L, TimeUnit.NANOSECONDS);
        return result;
    }
}
