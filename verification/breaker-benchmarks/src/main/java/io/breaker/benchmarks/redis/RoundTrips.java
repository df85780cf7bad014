package io.breaker.benchmarks.redis;

import io.breaker.CircuitBreaker;
import io.breaker.State;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts the Redis round trips of one instance's healthy calls, as Redis itself sees them: the
 * commands clients sent it ({@code MONITOR}, on a separate connection, leaving out the commands a
 * script runs inside Redis) while one shared breaker with the store's default settings (state cache
 * TTL 1 s) served a known number of successful calls. The store's own code is not asked.
 *
 * <p>Phases, on one instance, in order: no calls at all; a burst of 1,000 calls; 1,000 calls paced
 * one per 5 ms (about five cache periods); one thread, then two, then four, calling as fast as they
 * can for 5 s; and 1,000 calls paced again, right after full speed (refreshes must resume at about
 * one per TTL: the store looks at the clock only every few successes, and most rarely at full speed).
 * Each line gives the calls, the elapsed time, the commands by name, round trips per 1,000 calls, and
 * the goal's bound for that phase: at most one round trip per cache TTL, that is
 * {@code floor(elapsed / ttl) + 1} (a period that straddles the phase's start counts once).
 * The last column is how many Redis operations the store counted as failed (timed out) in the phase.
 * Exits with status 1 if a phase exceeds its bound or the breaker left CLOSED.
 *
 * <p>Usage: {@code java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.redis.RoundTrips}
 */
public final class RoundTrips {

    private static final int CALLS = 1_000;
    private static final Duration PACE = Duration.ofMillis(5);
    private static final Duration IDLE = Duration.ofSeconds(3);
    private static final Duration FULL_SPEED = Duration.ofSeconds(5);

    private RoundTrips() {}

    public static void main(String[] args) throws Exception {
        boolean allWithin = true;
        try (SharedBreaker shared = SharedBreaker.open(SharedClosedPath.WORK)) {
            CircuitBreaker breaker = shared.breaker;
            Duration ttl = shared.store.getSettings().stateCacheTtl();
            System.out.println("One instance, one shared breaker, state-cache-ttl " + ttl.toMillis()
                    + " ms, Redis on port " + shared.redis.port());
            long failuresConnecting = shared.store.getFailureCount();
            // Let the first refresh (the one that created the key) and the JIT settle before counting.
            runFor(breaker, Duration.ofSeconds(2), 1);
            System.out.println("Store failures while connecting: " + failuresConnecting + ", during the 2 s warm-up: "
                    + (shared.store.getFailureCount() - failuresConnecting));
            System.out.println("| phase | calls | elapsed | round trips (commands sent to Redis) | per 1,000 calls"
                    + " | bound (1 per TTL) | within | store failures |");
            System.out.println("|---|---:|---:|---|---:|---:|---|---:|");
            List<Phase> phases = List.of(
                    new Phase("no calls for " + IDLE.toSeconds() + " s", () -> {
                        Thread.sleep(IDLE.toMillis());
                        return 0L;
                    }),
                    new Phase("burst of " + CALLS + " calls", () -> {
                        for (int i = 0; i < CALLS; i++) {
                            breaker.execute(SharedClosedPath.WORK);
                        }
                        return CALLS;
                    }),
                    new Phase(CALLS + " calls, one per " + PACE.toMillis() + " ms", () -> paced(breaker)),
                    new Phase(
                            "full speed, 1 thread, " + FULL_SPEED.toSeconds() + " s",
                            () -> runFor(breaker, FULL_SPEED, 1)),
                    new Phase(
                            "full speed, 2 threads, " + FULL_SPEED.toSeconds() + " s",
                            () -> runFor(breaker, FULL_SPEED, 2)),
                    new Phase(
                            "full speed, 4 threads, " + FULL_SPEED.toSeconds() + " s",
                            () -> runFor(breaker, FULL_SPEED, 4)),
                    // Right after full speed: a success looks at the clock only every few successes, and
                    // that stride is longest now; refreshes must go on at about one per TTL all the same.
                    new Phase(
                            CALLS + " calls, one per " + PACE.toMillis() + " ms, after full speed",
                            () -> paced(breaker)));
            long idleRoundTrips = -1;
            try (RedisProcess.Monitor monitor = shared.redis.monitor()) {
                for (Phase phase : phases) {
                    monitor.drain();
                    long failuresBefore = shared.store.getFailureCount();
                    long start = System.nanoTime();
                    long calls = phase.body.run();
                    long elapsed = System.nanoTime() - start;
                    Map<String, Long> sent = monitor.drain();
                    long failures = shared.store.getFailureCount() - failuresBefore;
                    long roundTrips =
                            sent.values().stream().mapToLong(Long::longValue).sum();
                    long bound = elapsed / ttl.toNanos() + 1;
                    allWithin &= roundTrips <= bound;
                    if (idleRoundTrips < 0) {
                        idleRoundTrips = roundTrips;
                    }
                    System.out.printf(
                            "| %s | %,d | %.2f s | %d %s | %s | %d | %s | %d |%n",
                            phase.name,
                            calls,
                            elapsed / 1e9,
                            roundTrips,
                            sent.isEmpty() ? "" : sent.toString(),
                            calls == 0 ? "n/a" : String.format("%.6f", roundTrips * 1000.0 / calls),
                            bound,
                            roundTrips <= bound ? "yes" : "NO",
                            failures);
                }
            }
            System.out.println();
            System.out.println("Refresh observed: "
                    + (idleRoundTrips > 0
                            ? "on a timer (Redis saw round trips while no call was made)"
                            : "triggered by calls (no round trip while no call was made)"));
            System.out.println("Store failures in all: " + shared.store.getFailureCount() + ", breaker state: "
                    + breaker.getState());
            allWithin &= breaker.getState() == State.CLOSED;
        }
        if (!allWithin) {
            System.out.println("A phase needed more than one round trip per cache TTL, or the breaker left CLOSED.");
            System.exit(1);
        }
    }

    private static long paced(CircuitBreaker breaker) {
        long start = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            long due = start + i * PACE.toNanos();
            long now;
            while ((now = System.nanoTime()) < due) {
                LockSupport.parkNanos(due - now);
            }
            breaker.execute(SharedClosedPath.WORK);
        }
        return CALLS;
    }

    private static long runFor(CircuitBreaker breaker, Duration duration, int threads) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder calls = new LongAdder();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread caller = new Thread(
                    () -> {
                        long own = 0;
                        while (!stop.get()) {
                            breaker.execute(SharedClosedPath.WORK);
                            own++;
                        }
                        calls.add(own);
                    },
                    "caller-" + t);
            callers.add(caller);
            caller.start();
        }
        Thread.sleep(duration.toMillis());
        stop.set(true);
        for (Thread caller : callers) {
            caller.join();
        }
        return calls.sum();
    }

    private record Phase(String name, Body body) {}

    @FunctionalInterface
    private interface Body {
        long run() throws IOException, InterruptedException;
    }
}
