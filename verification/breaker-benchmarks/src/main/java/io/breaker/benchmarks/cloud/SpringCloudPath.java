package io.breaker.benchmarks.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.benchmarks.engine.Alike;
import io.breaker.spring.cloud.BreakerCircuitBreakerFactory;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
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
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JCircuitBreakerFactory;
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JConfigBuilder;
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JConfigurationProperties;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One call through Spring Cloud CircuitBreaker as application code makes it,
 * {@code factory.create(id).run(supplier, fallback)}, on our {@link BreakerCircuitBreakerFactory} and on
 * resilience4j's {@code Resilience4JCircuitBreakerFactory} (spring-cloud-circuitbreaker-resilience4j),
 * both built by hand without a Spring context and configured alike ({@link Alike}: count window of 100,
 * slow-call detection on, 1 h wait in OPEN). One breaker of each kind is shared by all benchmark
 * threads; the thread count is set by {@link SpringCloudOneThread}, {@link SpringCloudTwoThreads} and
 * {@link SpringCloudFourThreads}.
 *
 * <p>resilience4j's implementation is measured twice: as it comes, with its time limiter (1 s), which
 * submits every call to its executor and waits for it; and with {@code disableThreadPool} and
 * {@code disableTimeLimiter} (both are needed: without a time limiter it still submits the call to its
 * executor), which runs the call on the caller's thread as ours does (ours has no timeout). The
 * supplier and the fallback are constants, so the bytes per call are the implementations' own.
 *
 * <p>{@code state=CLOSED}: the supplier answers. {@code state=OPEN}: each breaker was tripped through its
 * factory by failing calls, the supplier is never called and the fallback answers. Set-up and tear-down
 * check every breaker's state and fail the run if one is in another.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class SpringCloudPath {

    /** The breaker's state for the whole run. */
    public enum Path {
        CLOSED,
        OPEN
    }

    private static final String ID = "wholesaler";
    private static final Integer ANSWER = 42;
    private static final Integer FALLBACK_ANSWER = -1;

    private static final Supplier<Integer> WORK = () -> ANSWER;
    private static final Supplier<Integer> FAILING = () -> {
        throw new UncheckedIOException(new IOException("the dependency is down"));
    };
    private static final Function<Throwable, Integer> FALLBACK = error -> FALLBACK_ANSWER;

    @Param
    public Path state;

    private BreakerRegistry registry;
    private BreakerCircuitBreakerFactory ours;
    private Resilience4JCircuitBreakerFactory r4j;
    private Resilience4JCircuitBreakerFactory r4jCallerThread;
    private ExecutorService r4jExecutor;

    @Setup
    public void createFactories() {
        registry = BreakerRegistry.of(
                BreakerConfig.ofDefaults(),
                Map.of(ID, Alike.ours(Alike.Window.COUNT_100, Alike.SlowCalls.ON, Alike.LONG_WAIT)));
        ours = new BreakerCircuitBreakerFactory(registry);
        // resilience4j's own default executor (a cached pool per group), with daemon threads so that
        // a fork ends when the run does.
        r4jExecutor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "r4j-time-limited-call");
            thread.setDaemon(true);
            return thread;
        });
        r4j = resilience4j(false);
        r4j.configureExecutorService(r4jExecutor);
        r4jCallerThread = resilience4j(true);
        if (state == Path.OPEN) {
            for (CircuitBreakerFactory<?, ?> factory : new CircuitBreakerFactory<?, ?>[] {ours, r4j, r4jCallerThread}) {
                for (int i = 0; i < Alike.MINIMUM_CALLS; i++) {
                    factory.create(ID).run(FAILING, FALLBACK);
                }
            }
        }
        checkState();
    }

    private static Resilience4JCircuitBreakerFactory resilience4j(boolean onCallerThread) {
        Resilience4JConfigurationProperties properties = new Resilience4JConfigurationProperties();
        properties.setDisableThreadPool(onCallerThread);
        properties.setDisableTimeLimiter(onCallerThread);
        Resilience4JCircuitBreakerFactory factory = new Resilience4JCircuitBreakerFactory(
                CircuitBreakerRegistry.ofDefaults(), TimeLimiterRegistry.ofDefaults(), null, properties);
        factory.configureDefault(id -> new Resilience4JConfigBuilder(id)
                .circuitBreakerConfig(Alike.theirsDefault(Alike.Window.COUNT_100, Alike.SlowCalls.ON, Alike.LONG_WAIT))
                .timeLimiterConfig(TimeLimiterConfig.ofDefaults())
                .build());
        return factory;
    }

    /** A run where a breaker was not in {@link #state} measured something else: fail it rather than report it. */
    @TearDown
    public void checkState() {
        String ourState = registry.breaker(ID).getState().name();
        String theirState =
                r4j.getCircuitBreakerRegistry().circuitBreaker(ID).getState().name();
        String theirCallerThreadState = r4jCallerThread
                .getCircuitBreakerRegistry()
                .circuitBreaker(ID)
                .getState()
                .name();
        if (!ourState.equals(state.name())
                || !theirState.equals(state.name())
                || !theirCallerThreadState.equals(state.name())) {
            throw new IllegalStateException("A breaker is not " + state + ": ours " + ourState + ", r4j " + theirState
                    + ", r4j on the caller's thread " + theirCallerThreadState);
        }
    }

    @TearDown
    public void stopExecutor() {
        r4jExecutor.shutdownNow();
    }

    @Benchmark
    public Integer breakerCreateRun() {
        return ours.create(ID).run(WORK, FALLBACK);
    }

    @Benchmark
    public Integer r4jCreateRun() {
        return r4j.create(ID).run(WORK, FALLBACK);
    }

    @Benchmark
    public Integer r4jCallerThreadCreateRun() {
        return r4jCallerThread.create(ID).run(WORK, FALLBACK);
    }
}
