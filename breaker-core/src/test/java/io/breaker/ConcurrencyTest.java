package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One named race per test, run under contention: more threads than cores, all released at once by a
 * barrier, many rounds. Each asserts an invariant the state machine's compare-and-sets promise.
 */
class ConcurrencyTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 200;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeClock clock = new FakeClock();

    /** A task each thread runs in a round; {@code thread} is its index. */
    private interface RoundTask {
        void run(int thread) throws Exception;
    }

    /** Runs {@code task} on every thread at once, {@code rounds} times, with {@code between} after each round. */
    private static void race(int rounds, RoundTask task, Runnable between) throws Exception {
        race(THREADS, rounds, task, between);
    }

    private static void race(int threads, int rounds, RoundTask task, Runnable between) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        task.run(thread);
                        return null;
                    }));
                }
                for (Future<?> future : done) {
                    future.get(60, TimeUnit.SECONDS);
                }
                between.run();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static BreakerConfig.Builder config() {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 100)
                .minimumNumberOfCalls(20)
                .failureRateThreshold(50)
                .waitDurationInOpenState(WAIT);
    }

    private static final class TransitionCounter implements BreakerListener {
        final AtomicInteger toOpen = new AtomicInteger();
        final AtomicInteger toHalfOpen = new AtomicInteger();
        final AtomicInteger toClosed = new AtomicInteger();

        @Override
        public void onStateTransition(Transition transition) {
            switch (transition.to()) {
                case OPEN -> toOpen.incrementAndGet();
                case HALF_OPEN -> toHalfOpen.incrementAndGet();
                case CLOSED -> toClosed.incrementAndGet();
                default -> {}
            }
        }
    }

    @Test
    void manyFailingThreadsTripTheBreakerExactlyOncePerTrip() throws Exception {
        CircuitBreaker breaker = CircuitBreaker.of("race-trip", config().build(), clock);
        TransitionCounter counter = new TransitionCounter();
        breaker.addListener(counter);
        AtomicInteger roundsThatTripped = new AtomicInteger();
        AtomicLong roundsPermit = new AtomicLong();

        race(
                ROUNDS,
                thread -> {
                    for (int i = 0; i < 20; i++) {
                        long permit = breaker.tryAcquirePermit();
                        if (permit != CircuitBreaker.NO_PERMIT) {
                            roundsPermit.set(permit);
                            breaker.onError(permit, 0L, new IOException());
                        }
                    }
                },
                () -> {
                    if (breaker.getState() == State.OPEN) {
                        roundsThatTripped.incrementAndGet();
                    }
                    // A late report from the round, then back to CLOSED for the next one.
                    breaker.onError(roundsPermit.get(), 0L, new IOException());
                    breaker.release();
                });

        assertThat(roundsThatTripped).hasValue(ROUNDS);
        assertThat(counter.toOpen).as("OPEN transitions").hasValue(ROUNDS);
    }

    @Test
    void exactlyOneCallerMovesOpenToHalfOpenAndOnlyThePermittedProbesGetThrough() throws Exception {
        int permitted = 3;
        CircuitBreaker breaker = CircuitBreaker.of(
                "race-probe", config().permittedCallsInHalfOpenState(permitted).build(), clock);
        TransitionCounter counter = new TransitionCounter();
        breaker.addListener(counter);
        AtomicInteger admitted = new AtomicInteger();
        AtomicLong probe = new AtomicLong();
        List<Integer> admittedPerRound = new ArrayList<>();
        Breakers.trip(breaker);
        clock.advance(WAIT);

        race(
                ROUNDS,
                thread -> {
                    for (int i = 0; i < 10; i++) {
                        long permit = breaker.tryAcquirePermit();
                        if (permit != CircuitBreaker.NO_PERMIT) {
                            probe.set(permit);
                            admitted.incrementAndGet();
                        }
                    }
                },
                () -> {
                    admittedPerRound.add(admitted.getAndSet(0));
                    // Every probe fails: back to OPEN, then wait again for the next round.
                    breaker.onError(probe.get(), 0L, new IOException());
                    clock.advance(WAIT);
                });

        assertThat(admittedPerRound).hasSize(ROUNDS).containsOnly(permitted);
        assertThat(counter.toHalfOpen).as("HALF_OPEN transitions").hasValue(ROUNDS);
        assertThat(counter.toOpen).as("OPEN transitions").hasValue(ROUNDS + 1);
    }

    @Test
    void concurrentSuccessfulProbesCloseTheBreakerOnce() throws Exception {
        int permitted = THREADS;
        CircuitBreaker breaker = CircuitBreaker.of(
                "race-close", config().permittedCallsInHalfOpenState(permitted).build(), clock);
        TransitionCounter counter = new TransitionCounter();
        breaker.addListener(counter);
        Breakers.trip(breaker);
        clock.advance(WAIT);

        race(
                ROUNDS,
                thread -> {
                    long permit = breaker.tryAcquirePermit();
                    if (permit != CircuitBreaker.NO_PERMIT) {
                        breaker.onSuccess(permit, 0L);
                    }
                },
                () -> {
                    assertThat(breaker.getState()).isEqualTo(State.CLOSED);
                    Breakers.trip(breaker);
                    clock.advance(WAIT);
                });

        assertThat(counter.toClosed).as("CLOSED transitions").hasValue(ROUNDS);
    }

    @Test
    void neverMoreConcurrentProbesThanPermitted() throws Exception {
        int permitted = 3;
        CircuitBreaker breaker = CircuitBreaker.of(
                "race-inflight",
                config().permittedCallsInHalfOpenState(permitted)
                        .ignoreExceptions(IllegalArgumentException.class)
                        .build(),
                clock);
        Breakers.trip(breaker);
        clock.advance(WAIT);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.releasePermit(permit);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger probes = new AtomicInteger();

        race(
                20,
                thread -> {
                    for (int i = 0; i < 2_000; i++) {
                        long permit2 = breaker.tryAcquirePermit();
                        if (permit2 == CircuitBreaker.NO_PERMIT) {
                            continue;
                        }
                        int now = inFlight.incrementAndGet();
                        maxInFlight.accumulateAndGet(now, Math::max);
                        probes.incrementAndGet();
                        for (int spin = 0; spin < 50; spin++) {
                            Thread.onSpinWait();
                        }
                        inFlight.decrementAndGet();
                        // Give the permit back: an ignored error or a cancellation (the probe never ran).
                        if ((i & 1) == 0) {
                            breaker.onError(permit2, 0L, new IllegalArgumentException("ignored"));
                        } else {
                            breaker.releasePermit(permit2);
                        }
                    }
                },
                () -> assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN));

        assertThat(maxInFlight.get()).as("most probes in flight at once").isBetween(1, permitted);
        assertThat(probes.get()).isGreaterThan(permitted);
        for (int i = 0; i < permitted; i++) {
            long permit3 = breaker.tryAcquirePermit();
            assertThat(permit3).as("permit %d is free again", i).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        }
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void countWindowLosesNoRecordUnderContention() throws Exception {
        int perThread = 10_000;
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 100_000)
                .minimumNumberOfCalls(100_000)
                .slowCallDurationThreshold(Duration.ofMillis(1))
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("race-count", config, clock);

        race(1, thread -> hammer(breaker, thread, perThread), () -> {});

        assertCounts(breaker, THREADS * perThread);
    }

    @Test
    void timeWindowLosesNoRecordUnderContentionOnAFixedClock() throws Exception {
        int perThread = 10_000;
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, 60)
                .minimumNumberOfCalls(1_000_000)
                .slowCallDurationThreshold(Duration.ofMillis(1))
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("race-time", config, clock);
        clock.advance(Duration.ofMillis(2_500)); // the first records race to move the window's head too

        race(1, thread -> hammer(breaker, thread, perThread), () -> {});

        assertCounts(breaker, THREADS * perThread);
    }

    @Test
    void timeWindowCountsStayConsistentWhileTheClockMovesUnderTheRecorders() throws Exception {
        int perThread = 20_000;
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, 3)
                .minimumNumberOfCalls(1_000_000)
                .slowCallDurationThreshold(Duration.ofMillis(1))
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("race-time-moving", config, clock);
        AtomicInteger worstCalls = new AtomicInteger();

        race(
                1,
                thread -> {
                    if (thread == 0) { // one thread moves time across many second boundaries, and reads
                        for (int i = 0; i < 2_000; i++) {
                            clock.advance(Duration.ofMillis(7));
                            BreakerMetrics metrics = breaker.getMetrics();
                            worstCalls.accumulateAndGet(metrics.calls(), Math::max);
                            assertThat(metrics.failedCalls()).isLessThanOrEqualTo(metrics.calls() + THREADS);
                        }
                    } else {
                        hammer(breaker, thread, perThread);
                    }
                },
                () -> {});

        assertThat(worstCalls.get()).isLessThanOrEqualTo((THREADS - 1) * perThread);
        // A record whose thread stalled for longer than the window between reading the head and
        // adding to its bucket may land in a bucket already drained (on this fake clock, seconds pass
        // in microseconds, so the test provokes exactly that). Such a record lingers until its bucket
        // is next reused, at most one rotation of the buckets: after that nothing may be left.
        clock.advance(Duration.ofSeconds(3 + 3 + 1)); // window + TimeWindow.SPARE buckets + 1
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls, BreakerMetrics::slowCalls)
                .containsExactly(0, 0, 0);
        hammer(breaker, 0, 4);
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls, BreakerMetrics::slowCalls)
                .containsExactly(4, 2, 2);
    }

    @Test
    void timeWindowLosesNoRecordWhileTheClockCrossesSecondsUnderTheRecorders() throws Exception {
        // The race: one thread publishes a new second while others already record into its bucket.
        recordWhileCrossingSeconds(new FakeClock());
    }

    private static void recordWhileCrossingSeconds(FakeClock clock) throws Exception {
        int threads = 4;
        int boundaries = 200; // fewer than the window's seconds: nothing is old enough to expire
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, BreakerConfig.MAX_TIME_WINDOW_SECONDS)
                .minimumNumberOfCalls(1_000_000)
                .failureRateThreshold(100)
                .slowCallRateThreshold(100)
                .slowCallDurationThreshold(Duration.ofMillis(1))
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("race-time-boundaries", config, clock);
        AtomicBoolean done = new AtomicBoolean();
        AtomicIntegerArray groups = new AtomicIntegerArray(threads);

        race(
                threads,
                1,
                thread -> {
                    if (thread == 0) {
                        // Crosses a second boundary again and again, each time once every recorder has
                        // finished two groups of calls: a second lasts a while for every thread, as it does
                        // on a real clock, yet the recorders are always busy when it ends.
                        int[] seen = new int[threads];
                        for (int i = 0; i < boundaries && !done.get(); i++) {
                            for (int t = 1; t < threads; t++) {
                                seen[t] = groups.get(t);
                            }
                            for (int t = 1; t < threads; t++) {
                                while (groups.get(t) - seen[t] < 2 && !done.get()) {
                                    Thread.yield();
                                }
                            }
                            clock.advance(Duration.ofSeconds(1));
                        }
                        done.set(true);
                    } else {
                        try {
                            while (!done.get()) {
                                hammer(breaker, thread, 4);
                                groups.incrementAndGet(thread);
                            }
                        } finally {
                            done.set(true); // a recorder that fails stops the others and the clock
                        }
                    }
                },
                () -> {});

        int total = 0;
        for (int t = 1; t < threads; t++) {
            total += groups.get(t) * 4;
        }
        assertThat(total).isGreaterThanOrEqualTo(boundaries * (threads - 1) * 8);
        assertCounts(breaker, total);
    }

    /** Records a fixed mix: per 4 calls one success, one failure, one slow success, one slow failure. */
    private static void hammer(CircuitBreaker breaker, int thread, int calls) {
        IOException failure = new IOException("down");
        long slow = Duration.ofMillis(5).toNanos();
        for (int i = 0; i < calls; i++) {
            long permit = breaker.tryAcquirePermit();
            assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
            switch ((i + thread) & 3) {
                case 0 -> breaker.onSuccess(permit, 0L);
                case 1 -> breaker.onError(permit, 0L, failure);
                case 2 -> breaker.onSuccess(permit, slow);
                default -> breaker.onError(permit, slow, failure);
            }
        }
    }

    private static void assertCounts(CircuitBreaker breaker, int total) {
        BreakerMetrics metrics = breaker.getMetrics();
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(metrics.calls()).as("calls").isEqualTo(total);
        assertThat(metrics.failedCalls()).as("failed calls").isEqualTo(total / 2);
        assertThat(metrics.slowCalls()).as("slow calls").isEqualTo(total / 2);
    }
}
