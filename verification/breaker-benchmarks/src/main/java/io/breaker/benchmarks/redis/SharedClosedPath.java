package io.breaker.benchmarks.redis;

import io.breaker.CircuitBreaker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A healthy call ({@code execute(Supplier)}, CLOSED, success) through three breakers configured
 * alike ({@link SameSettings}): ours in memory, ours shared through Redis with the store's default
 * 1 s state cache, and resilience4j. Each breaker is shared by all benchmark threads
 * ({@link Scope#Benchmark}); the thread count is set by {@link SharedClosedOneThread},
 * {@link SharedClosedTwoThreads} and {@link SharedClosedFourThreads}.
 *
 * <p>The Redis-backed benchmark starts its own {@code redis-server} on a free port for the trial and
 * stops it after; the other two never start one (each state is built only for the benchmarks that
 * use it, and each benchmark runs in its own fork). It measures whatever the store does on a healthy
 * call, whether it refreshes its cache from a timer or from calls, including any round trip a call
 * makes; at the end of the trial it prints the round trips Redis saw during it and the operations
 * the store counted as failed (calls after a timed-out refresh run on the local fallback until the
 * next one), and fails if the breaker left CLOSED. {@link RoundTrips} counts the round trips per
 * 1,000 calls.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class SharedClosedPath {

    private static final Integer ANSWER = 42;
    /** The protected work: as cheap as possible, so the breaker's own cost shows. */
    static final Supplier<Integer> WORK = () -> ANSWER;

    /** Our breaker, in memory only. */
    @State(Scope.Benchmark)
    public static class InMemory {
        CircuitBreaker breaker;

        @Setup(Level.Trial)
        public void create() {
            breaker = CircuitBreaker.of("wholesaler", SameSettings.ours());
        }

        @TearDown(Level.Trial)
        public void checkStillClosed() {
            if (breaker.getState() != io.breaker.State.CLOSED) {
                throw new IllegalStateException("the in-memory breaker left CLOSED: " + breaker.getState());
            }
        }
    }

    /** Our breaker, shared through a private Redis with the default cache TTL. */
    @State(Scope.Benchmark)
    public static class RedisBacked {
        SharedBreaker shared;
        CircuitBreaker breaker;
        private RedisProcess.Monitor monitor;
        private long failuresBefore;
        private long startNanos;

        @Setup(Level.Trial)
        public void start() throws IOException, InterruptedException {
            shared = SharedBreaker.open(WORK);
            breaker = shared.breaker;
            monitor = shared.redis.monitor();
            monitor.drain();
            failuresBefore = shared.store.getFailureCount();
            startNanos = System.nanoTime();
        }

        /**
         * Prints the round trips of the trial and the store's failed operations (a timed-out refresh
         * means some calls ran on the local fallback: say so next to the numbers); fails if the
         * breaker left CLOSED.
         */
        @TearDown(Level.Trial)
        public void reportAndStop() throws IOException, InterruptedException {
            try {
                double seconds = (System.nanoTime() - startNanos) / 1e9;
                Map<String, Long> sent = monitor.drain();
                long roundTrips =
                        sent.values().stream().mapToLong(Long::longValue).sum();
                System.out.printf(
                        "%nRedis round trips during the trial (warm-up + measurement, %.1f s): %d %s,"
                                + " %.2f per second; store failures %d (before the trial %d), store available %s%n",
                        seconds,
                        roundTrips,
                        sent,
                        roundTrips / seconds,
                        shared.store.getFailureCount() - failuresBefore,
                        failuresBefore,
                        shared.store.isAvailable());
                if (breaker.getState() != io.breaker.State.CLOSED) {
                    throw new IllegalStateException("the Redis-backed breaker left CLOSED: " + breaker.getState());
                }
            } finally {
                monitor.close();
                shared.close();
            }
        }
    }

    /** resilience4j's breaker with its default (locking) window. */
    @State(Scope.Benchmark)
    public static class Resilience4j {
        io.github.resilience4j.circuitbreaker.CircuitBreaker breaker;

        @Setup(Level.Trial)
        public void create() {
            breaker = io.github.resilience4j.circuitbreaker.CircuitBreaker.of("wholesaler", SameSettings.theirs());
        }

        @TearDown(Level.Trial)
        public void checkStillClosed() {
            if (breaker.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED) {
                throw new IllegalStateException("resilience4j's breaker left CLOSED: " + breaker.getState());
            }
        }
    }

    @Benchmark
    public Integer inMemoryExecute(InMemory memory) {
        return memory.breaker.execute(WORK);
    }

    @Benchmark
    public Integer redisBackedExecute(RedisBacked redis) {
        return redis.breaker.execute(WORK);
    }

    @Benchmark
    public Integer r4jExecuteSupplier(Resilience4j r4j) {
        return r4j.breaker.executeSupplier(WORK);
    }
}
