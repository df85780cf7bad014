package io.breaker.benchmarks.engine;

import io.breaker.CallTimeout;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Two of the call's features on the CLOSED success path, each next to its nearest peer, one
 * breaker of each kind shared by the benchmark's threads ({@code -t} sets how many):
 *
 * <ul>
 *   <li>A call timeout: ours, {@link CallTimeout#call} (the call handed to an executor, the caller
 *       waiting on it at most the timeout), against Failsafe's breaker composed with its
 *       {@code Timeout} with interrupt (the call runs on the caller's thread, a scheduled task would
 *       interrupt it). Parameter {@code executor}: {@code POOL}, a cached thread pool (what Java 17
 *       needs), or {@code VIRTUAL}, a virtual thread per call (Java 21 and later).
 *   <li>A result rule: ours, the two-step path the advice takes with {@code record-result} (the
 *       result asked once whether it counts as a failure), against resilience4j's
 *       {@code recordResult} predicate on {@code executeSupplier}. The answer counts as no failure.
 * </ul>
 *
 * The timeout never fires (the supplier answers at once): what is measured is what a healthy call
 * pays for being timed or having its result checked.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
public class TimedAndResultPaths {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** A status-like rule: 500 and above count as failures. */
    private static final Predicate<Object> SERVER_ERROR = result -> result instanceof Integer code && code >= 500;

    /** Not final, so that the compiler cannot decide the rule once for all calls. */
    public Integer answer = 200;

    @Param({"POOL"})
    public String executor;

    private ExecutorService pool;
    private CircuitBreaker timed;
    private CallTimeout timeout;
    private dev.failsafe.CircuitBreaker<Integer> failsafeBreaker;
    private dev.failsafe.FailsafeExecutor<Integer> failsafeTimed;
    private CircuitBreaker results;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jResults;

    @Setup
    public void createBreakers() {
        pool = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "timed-call");
            thread.setDaemon(true);
            return thread;
        });
        Executor chosen = "VIRTUAL".equals(executor) ? CallTimeout.virtualThreads("timed") : pool;
        timed = CircuitBreaker.of("timed", Alike.ours(Window.COUNT_100, SlowCalls.OFF, Alike.LONG_WAIT));
        timeout = CallTimeout.of("timed", TIMEOUT, chosen);
        failsafeBreaker = Alike.failsafe(Window.COUNT_100, Alike.LONG_WAIT);
        failsafeTimed = dev.failsafe.Failsafe.with(failsafeBreaker)
                .compose(dev.failsafe.Timeout.<Integer>builder(TIMEOUT)
                        .withInterrupt()
                        .build());
        results = CircuitBreaker.of("results", Alike.ours(Window.COUNT_100, SlowCalls.OFF, Alike.LONG_WAIT));
        r4jResults = io.github.resilience4j.circuitbreaker.CircuitBreaker.of(
                "results",
                Alike.theirs(Window.COUNT_100, SlowCalls.OFF, Alike.LONG_WAIT)
                        .recordResult(SERVER_ERROR)
                        .build());
    }

    /** A run in which a breaker left CLOSED measured something else: fail it rather than report it. */
    @TearDown
    public void checkStillClosed() {
        pool.shutdownNow();
        if (timed.getState() != io.breaker.State.CLOSED
                || results.getState() != io.breaker.State.CLOSED
                || !failsafeBreaker.isClosed()
                || r4jResults.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED) {
            throw new IllegalStateException("a breaker left CLOSED during the run");
        }
    }

    @Benchmark
    public Integer breakerTimedCall() throws Exception {
        Integer value = answer;
        return timeout.call(timed, () -> value);
    }

    @Benchmark
    public Integer failsafeTimedGet() {
        Integer value = answer;
        return failsafeTimed.get(() -> value);
    }

    @Benchmark
    public Integer breakerRecordResult() {
        long permit = results.tryAcquirePermit();
        if (permit == CircuitBreaker.NO_PERMIT) {
            throw new IllegalStateException("rejected in CLOSED");
        }
        Integer value = answer;
        if (SERVER_ERROR.test(value)) {
            results.onFailedResult(permit, 0L, "Integer");
        } else {
            results.onSuccess(permit, 0L);
        }
        return value;
    }

    @Benchmark
    public Integer r4jRecordResult() {
        Integer value = answer;
        return r4jResults.executeSupplier(() -> value);
    }
}
