package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.BreakerListener;
import io.breaker.BreakerMetrics;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static io.breaker.redis.Fleet.allIn;
import static io.breaker.redis.Fleet.await;
import static io.breaker.redis.Fleet.awaitCalling;
import static org.assertj.core.api.Assertions.assertThat;

/** Several instances sharing one breaker through a real Redis, with threads calling concurrently. */
@Tag(BootLine.TAG)
class SharedBreakerFleetTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final int INSTANCES = 4;
    /** Every call fails, so the breaker trips at the minimum number of calls. */
    private static final int THRESHOLD = 5;

    private static final Duration TTL = Duration.ofMillis(300);
    /** Generous for a busy CI machine: this class tests the shared logic, not the timeout. */
    private static final RedisStoreSettings SETTINGS =
            RedisStoreSettings.defaults().withStateCacheTtl(TTL).withTimeout(Duration.ofMillis(250));

    private static BreakerConfig config(Duration wait, Duration lease) {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 20)
                .minimumNumberOfCalls(THRESHOLD)
                .failureRateThreshold(50)
                .waitDurationInOpenState(wait)
                .probeLease(lease)
                .permittedCallsInHalfOpenState(1)
                .build();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void fleetStopsCallingAfterAtMostThresholdPlusInstancesMinusOneFailures() throws Exception {
        try (Fleet fleet =
                new Fleet(redis, INSTANCES, config(Duration.ofMinutes(1), Duration.ofMinutes(1)), SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("trip"));
            AtomicInteger reachedDependency = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> callers = new ArrayList<>();
            for (CircuitBreaker breaker : breakers) {
                callers.add(Fleet.thread(() -> {
                    awaitQuietly(start);
                    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                    // One calling thread per instance, until its own breaker stops it.
                    long permit;
                    while (System.nanoTime() < deadline
                            && (permit = breaker.tryAcquirePermit()) != CircuitBreaker.NO_PERMIT) {
                        reachedDependency.incrementAndGet();
                        breaker.onError(permit, 0L, new IOException("dependency down"));
                    }
                }));
            }
            start.countDown();
            for (Thread caller : callers) {
                caller.join();
            }

            assertThat(reachedDependency.get()).isBetween(THRESHOLD, THRESHOLD + INSTANCES - 1);
            assertThat(breakers).allMatch(breaker -> breaker.getState() == State.OPEN);
        }
    }

    /**
     * An instance that learns of the fleet's trip reports the numbers of the window that tripped,
     * the fleet's: in its transition (the log line, events, listeners) and in its metrics while
     * OPEN and HALF_OPEN; its own window saw only part of the calls.
     */
    @Test
    void aTripLearnedFromTheFleetReportsTheFleetsWindow() throws Exception {
        BreakerConfig config = config(Duration.ofMillis(300), Duration.ofSeconds(30));
        try (Fleet fleet = new Fleet(redis, 2, config, SETTINGS)) {
            String name = unique("numbers");
            List<CircuitBreaker> breakers = fleet.breakers(name);
            List<List<Transition>> told = new ArrayList<>();
            for (CircuitBreaker breaker : breakers) {
                List<Transition> transitions = new CopyOnWriteArrayList<>();
                told.add(transitions);
                breaker.addListener(new BreakerListener() {
                    @Override
                    public void onStateTransition(Transition transition) {
                        transitions.add(transition);
                    }
                });
            }
            fail(breakers.get(0), THRESHOLD - 2);
            fail(breakers.get(1), 2); // the fleet's fifth failure: it trips in the answer to this report
            assertThat(breakers.get(1).getState()).isEqualTo(State.OPEN);
            // The other instance learns of it from the answer to its next report.
            await(Duration.ofSeconds(3), () -> {
                Fleet.failEach(breakers.subList(0, 1)); // a call only while it still admits one
                return breakers.get(0).getState() == State.OPEN;
            });

            for (int i = 0; i < breakers.size(); i++) {
                Transition trip = told.get(i).stream()
                        .filter(t -> t.to() == State.OPEN)
                        .findFirst()
                        .orElseThrow();
                assertThat(trip.from()).isEqualTo(State.CLOSED);
                assertThat(trip.cause()).isEqualTo(TransitionCause.FAILURE_RATE);
                assertThat(trip.metrics().calls())
                        .as("instance %d: calls of the window that tripped", i)
                        .isEqualTo(THRESHOLD);
                assertThat(trip.metrics().failedCalls()).isEqualTo(THRESHOLD);
                assertThat(trip.metrics().failureRate()).isEqualTo(100f);
                BreakerMetrics now = breakers.get(i).getMetrics();
                assertThat(now.calls()).as("instance %d: calls while OPEN", i).isEqualTo(THRESHOLD);
                assertThat(now.failureRate()).isEqualTo(100f);
            }

            // The probe fails: the reopening is reported with the same numbers, as in memory.
            await(Duration.ofSeconds(3), () -> {
                Fleet.failEach(breakers);
                return told.stream().flatMap(List::stream).anyMatch(t -> t.from() == State.HALF_OPEN);
            });
            Transition reopened = told.stream()
                    .flatMap(List::stream)
                    .filter(t -> t.from() == State.HALF_OPEN)
                    .findFirst()
                    .orElseThrow();
            assertThat(reopened.to()).isEqualTo(State.OPEN);
            assertThat(reopened.cause()).isEqualTo(TransitionCause.PROBE_FAILED);
            assertThat(reopened.metrics().calls()).isEqualTo(THRESHOLD);
            assertThat(reopened.metrics().failureRate()).isEqualTo(100f);
        }
    }

    @Test
    void lateFailuresNeverPushTheReopenTimeBack() throws Exception {
        BreakerConfig config = config(Duration.ofMinutes(1), Duration.ofMinutes(1));
        try (Fleet fleet = new Fleet(redis, 2, config, SETTINGS)) {
            String name = unique("late");
            List<CircuitBreaker> breakers = fleet.breakers(name);
            for (int i = 0; i < THRESHOLD; i++) {
                breakers.get(0).onError(breakers.get(0).tryAcquirePermit(), 0L, new IOException("down"));
            }
            assertThat(breakers.get(0).getState()).isEqualTo(State.OPEN);
            String probeAt = redis.command("HGET", "{breaker:" + name + "}:state", "probe_at");

            // Failures of calls admitted before the trip, reported late from the other instance.
            SharedState late = fleet.stores.get(1).attach(name, config);
            Thread.sleep(20); // let Redis's clock move, so an overwrite would show
            for (int i = 0; i < 10; i++) {
                SharedVerdict answer = late.recordFailure(CallOutcome.FAILURE);
                assertThat(answer.state()).isEqualTo(State.OPEN);
            }

            assertThat(redis.command("HGET", "{breaker:" + name + "}:state", "probe_at"))
                    .isEqualTo(probeAt);
        }
    }

    @Test
    void exactlyOneProbeReachesTheDependencyPerWaitWindowAcrossTheFleet() throws Exception {
        Duration wait = Duration.ofMillis(400);
        try (Fleet fleet = new Fleet(redis, INSTANCES, config(wait, Duration.ofSeconds(30)), SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("probe"));
            trip(breakers.get(0));
            // The others learn of the trip from the answer to their next failure report.
            awaitCalling(Duration.ofSeconds(3), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));

            ConcurrentLinkedQueue<Long> probes = new ConcurrentLinkedQueue<>();
            AtomicInteger inFlight = new AtomicInteger();
            AtomicInteger mostInFlight = new AtomicInteger();
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> callers = new ArrayList<>();
            for (CircuitBreaker breaker : breakers) {
                callers.add(Fleet.thread(() -> {
                    while (running.get()) {
                        long permit = breaker.tryAcquirePermit();
                        if (permit != CircuitBreaker.NO_PERMIT) {
                            probes.add(System.nanoTime());
                            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                            inFlight.decrementAndGet();
                            breaker.onError(permit, 0L, new IOException("still down"));
                        } else {
                            LockSupport.parkNanos(200_000L); // a busy caller, without burning a core
                        }
                    }
                }));
            }
            Thread.sleep(wait.multipliedBy(4).toMillis());
            running.set(false);
            for (Thread caller : callers) {
                caller.join();
            }

            assertThat(mostInFlight.get()).isEqualTo(1);
            assertThat(probes).hasSizeBetween(2, 5);
            List<Long> times = new ArrayList<>(probes);
            for (int i = 1; i < times.size(); i++) {
                // Each failed probe reopens for a whole wait before the fleet lets the next one through.
                assertThat(times.get(i) - times.get(i - 1))
                        .isGreaterThanOrEqualTo(wait.minusMillis(30).toNanos());
            }
        }
    }

    @Test
    void aSuccessfulProbeClosesTheBreakerForEveryInstance() throws Exception {
        try (Fleet fleet =
                new Fleet(redis, INSTANCES, config(Duration.ofMillis(200), Duration.ofSeconds(30)), SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("close"));
            trip(breakers.get(0));
            // The others learn of the trip from the answer to their next failure report.
            awaitCalling(Duration.ofSeconds(3), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));

            AtomicInteger probes = new AtomicInteger();
            await(Duration.ofSeconds(5), () -> {
                for (CircuitBreaker breaker : breakers) {
                    long permit = breaker.tryAcquirePermit();
                    if (permit != CircuitBreaker.NO_PERMIT) {
                        if (breaker.getState() == State.HALF_OPEN) {
                            probes.incrementAndGet();
                        }
                        breaker.onSuccess(permit, 0L);
                    }
                }
                return allIn(breakers, State.CLOSED);
            });

            assertThat(probes.get()).isEqualTo(1);
        }
    }

    @Test
    void aProbeLeaseThatRunsOutFreesTheProbeForAnotherInstance() throws Exception {
        Duration lease = Duration.ofMillis(500);
        try (Fleet fleet = new Fleet(redis, 2, config(Duration.ofMillis(100), lease), SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("lease"));
            trip(breakers.get(0));
            // The others learn of the trip from the answer to their next failure report.
            awaitCalling(Duration.ofSeconds(3), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));
            CircuitBreaker first = breakers.get(0);
            CircuitBreaker second = breakers.get(1);
            // The first instance wins the probe and never reports (its call hangs).
            await(Duration.ofSeconds(3), () -> first.tryAcquirePermit() != CircuitBreaker.NO_PERMIT);
            long won = System.nanoTime();

            assertThat(second.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
            long[] probe = new long[1];
            await(Duration.ofSeconds(5), () -> (probe[0] = second.tryAcquirePermit()) != CircuitBreaker.NO_PERMIT);

            assertThat(System.nanoTime() - won)
                    .isGreaterThanOrEqualTo(lease.minusMillis(30).toNanos());
            second.onSuccess(probe[0], 0L);
            // The first instance learns at its next call (its own lease ran out: it may probe, and succeeds).
            awaitCalling(Duration.ofSeconds(3), Fleet::succeedEach, breakers, () -> allIn(breakers, State.CLOSED));
        }
    }

    @Test
    void anOperatorChangeOnOneInstanceReachesEveryOtherAtItsFirstCallAfterOneCacheTtl() throws Exception {
        try (Fleet fleet = new Fleet(redis, 3, config(Duration.ofMinutes(1), Duration.ofMinutes(1)), SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("force"));
            Duration deadline = TTL.plusMillis(400); // one TTL, plus a round trip on a busy machine

            // Every instance keeps getting calls (rejected ones included): a call finding its cache
            // older than one TTL refreshes it.
            assertThat(breakers.get(0).forceOpen()).isTrue();
            awaitCalling(deadline, Fleet::succeedEach, breakers, () -> allIn(breakers, State.FORCED_OPEN));
            assertThat(breakers).noneMatch(b -> b.tryAcquirePermit() != CircuitBreaker.NO_PERMIT);

            breakers.get(1).forceClosed();
            awaitCalling(deadline, Fleet::succeedEach, breakers, () -> allIn(breakers, State.FORCED_CLOSED));

            breakers.get(2).release();
            awaitCalling(deadline, Fleet::succeedEach, breakers, () -> allIn(breakers, State.CLOSED));
            assertThat(redis.command("HGET", "{breaker:" + breakers.get(0).getName() + "}:state", "state"))
                    .contains("CLOSED");
        }
    }

    @Test
    void aTimeBasedWindowCountsTheFailuresOfTheWholeFleetWithinItsSeconds() throws Exception {
        BreakerConfig perSecondsWindow = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, 5)
                .minimumNumberOfCalls(4)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMinutes(1))
                .build();
        try (Fleet fleet = new Fleet(redis, 2, perSecondsWindow, SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("seconds"));
            fail(breakers.get(0), 2);
            assertThat(breakers.get(0).getState()).isEqualTo(State.CLOSED);
            fail(breakers.get(1), 2); // 4 failures in the fleet, 2 on each instance

            assertThat(breakers.get(1).getState()).isEqualTo(State.OPEN);
        }
    }

    @Test
    void failuresOlderThanATimeBasedWindowNoLongerCount() throws Exception {
        BreakerConfig oneSecondWindow = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, 1)
                .minimumNumberOfCalls(4)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMinutes(1))
                .build();
        try (Fleet fleet = new Fleet(redis, 2, oneSecondWindow, SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("aged"));
            fail(breakers.get(0), 3);
            long second = redisSecond();
            await(Duration.ofSeconds(5), () -> redisSecond() >= second + 2); // Redis's clock, not ours

            fail(breakers.get(1), 1); // would be the 4th failure if the first 3 still counted
            assertThat(breakers).allMatch(breaker -> breaker.getState() == State.CLOSED);
            assertThat(redis.command("HGET", "{breaker:" + breakers.get(0).getName() + "}:window", "calls"))
                    .contains("\r\n1\r\n");
        }
    }

    private static void fail(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            long permit = breaker.tryAcquirePermit();
            assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
            breaker.onError(permit, 0L, new IOException("down"));
        }
    }

    private static long redisSecond() {
        try {
            String[] lines = redis.command("TIME").split("\r\n");
            return Long.parseLong(lines[2]); // *2, $10, <seconds>, $6, <micros>
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void healthyCallsCostAtMostOneRedisRoundTripPerCacheTtl() throws Exception {
        try (Fleet fleet = new Fleet(redis, 1, config(Duration.ofMinutes(1), Duration.ofMinutes(1)), SETTINGS)) {
            CircuitBreaker breaker = fleet.breakers(unique("healthy")).get(0);
            long scriptsBefore = scriptCalls();
            long start = System.nanoTime();
            long calls = 0;
            while (System.nanoTime() - start < TTL.multipliedBy(3).toNanos()) {
                breaker.execute(() -> "ok");
                calls++;
            }
            long periods = (System.nanoTime() - start) / TTL.toNanos() + 1;

            assertThat(calls).isGreaterThan(1_000);
            // The cache is refreshed (the count is real), but once per period, not per call.
            assertThat(scriptCalls() - scriptsBefore).isBetween(1L, periods + 1);
        }
    }

    /** Scripts Redis ran so far, from INFO commandstats (EVALSHA, plus EVAL the first time a script is sent). */
    private static long scriptCalls() throws IOException {
        long total = 0;
        for (String line : redis.command("INFO", "commandstats").split("\r\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String calls = line.substring(line.indexOf("calls=") + 6);
                total += Long.parseLong(calls.substring(0, calls.indexOf(',')));
            }
        }
        return total;
    }

    private static void trip(CircuitBreaker breaker) {
        for (int i = 0; i < THRESHOLD; i++) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.onError(permit, 0L, new IOException("down"));
            }
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
