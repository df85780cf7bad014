package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.BreakerListener;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import io.breaker.spring.store.StoreFailureMode;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static io.breaker.redis.Fleet.allIn;
import static io.breaker.redis.Fleet.await;
import static io.breaker.redis.Fleet.awaitCalling;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet's promise against a real redis-server, one defect of the protocol per test: a slow
 * answer, a late batch of successes, a lost Redis, a window changed by a rolling deploy, an
 * interrupted caller, and an operator's state during a blip.
 */
@Tag(BootLine.TAG)
class FleetPromiseTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final RedisStoreSettings SETTINGS = RedisStoreSettings.defaults()
            .withStateCacheTtl(Duration.ofMillis(200))
            .withTimeout(Duration.ofMillis(50));

    private static BreakerConfig.Builder window(int size, int minimum) {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, size)
                .minimumNumberOfCalls(minimum)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofSeconds(30));
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static void fail(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            breaker.onError(permit, 0L, new IOException("down"));
        }
    }

    private static void succeed(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            breaker.onSuccess(permit, 0L);
        }
    }

    /** A field of one of the breaker's hashes, or null. */
    private static String hashField(String name, String key, String field) throws IOException {
        String reply = redis.command("HGET", "{breaker:" + name + "}:" + key, field);
        if (!reply.startsWith("$") || reply.startsWith("$-1")) {
            return null;
        }
        int start = reply.indexOf("\r\n") + 2;
        return reply.substring(start, reply.indexOf("\r\n", start));
    }

    @Test
    void oneSlowAnswerIsNotAnOutageAndTheReportIsNotLost() throws Exception {
        try (Fleet fleet = new Fleet(redis, 1, window(100, 100).build(), SETTINGS)) {
            String name = unique("slow");
            CircuitBreaker breaker = fleet.breakers(name).get(0);
            fail(breaker);

            redis.pause();
            Thread resume = Fleet.thread(() -> {
                try {
                    Thread.sleep(150);
                    redis.resume();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            fail(breaker); // its answer comes after the 50 ms timeout
            resume.join();

            assertThat(fleet.stores.get(0).isAvailable())
                    .as("one slow answer is not an outage")
                    .isTrue();
            fail(breaker);
            await(Duration.ofSeconds(5), () -> {
                try {
                    return "3".equals(hashField(name, "window", "failed"));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(hashField(name, "window", "failed"))
                    .as("each failure counted exactly once")
                    .isEqualTo("3");
        }
    }

    @Test
    void aLateBatchOfSuccessesDoesNotPushOutTheFleetsNewerFailures() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000_000L);
        RedisStoreSettings slowRefresh = SETTINGS.withStateCacheTtl(Duration.ofHours(1));
        try (Fleet fleet = new Fleet(redis, 2, window(10, 5).build(), slowRefresh, now::get)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("late-batch"));
            CircuitBreaker warm = breakers.get(0);
            CircuitBreaker other = breakers.get(1);
            for (int i = 0; i < 20; i++) {
                succeed(warm); // counted, not sent yet: the next report carries them
            }
            for (int i = 0; i < 4; i++) {
                fail(other);
            }

            fail(warm); // carries the 20 earlier successes

            assertThat(warm.getState())
                    .as("5 failures in the last 10 calls of the fleet")
                    .isEqualTo(State.OPEN);
        }
    }

    @Test
    void aStoreThatLostItsStateIsSeededAgainAndDoesNotCloseTheFleet() throws Exception {
        try (Fleet fleet = new Fleet(redis, 2, window(10, 5).build(), SETTINGS)) {
            String name = unique("flushed");
            List<CircuitBreaker> breakers = fleet.breakers(name);
            List<Transition> heard = new CopyOnWriteArrayList<>();
            breakers.get(1).addListener(new BreakerListener() {
                @Override
                public void onStateTransition(Transition transition) {
                    heard.add(transition);
                }
            });
            for (int i = 0; i < 5; i++) {
                fail(breakers.get(0));
            }
            awaitCalling(Duration.ofSeconds(5), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));

            redis.command("FLUSHALL");
            long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < until) {
                Fleet.succeedEach(breakers); // calls refresh the cached state: each sees the empty store
                Thread.sleep(20);
            }

            assertThat(breakers).allMatch(b -> b.getState() == State.OPEN);
            assertThat(hashField(name, "state", "state")).isEqualTo("OPEN");
            assertThat(heard).noneMatch(t -> t.cause() == TransitionCause.OPERATOR);
        }
    }

    @Test
    void aWindowOfAnotherSizeStartsAfreshInsteadOfKeepingPhantomCalls() throws Exception {
        String name = unique("resized");
        try (Fleet before = new Fleet(redis, 1, window(100, 10).build(), SETTINGS)) {
            CircuitBreaker breaker = before.breakers(name).get(0);
            for (int i = 0; i < 100; i++) {
                breaker.execute(() -> "ok");
            }
            await(Duration.ofSeconds(5), () -> {
                succeed(breaker);
                try {
                    return Integer.parseInt(String.valueOf(hashField(name, "window", "calls"))) >= 100;
                } catch (IOException | NumberFormatException e) {
                    return false;
                }
            });
        }
        // At 60%, the phantom successes a window of 100 left behind keep 50 failures of a window of 50 below it.
        try (Fleet after =
                new Fleet(redis, 1, window(50, 10).failureRateThreshold(60).build(), SETTINGS)) {
            CircuitBreaker breaker = after.breakers(name).get(0);
            for (int i = 0; i < 100 && breaker.getState() == State.CLOSED; i++) {
                fail(breaker);
            }
            assertThat(breaker.getState())
                    .as("consecutive failures trip a window of 50")
                    .isEqualTo(State.OPEN);
        }
    }

    @Test
    void anInterruptedCallerDoesNotBecomeASecondProber() throws Exception {
        BreakerConfig config =
                window(10, 5).waitDurationInOpenState(Duration.ofMillis(300)).build();
        try (Fleet fleet = new Fleet(redis, 2, config, SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("interrupted"));
            for (int i = 0; i < 5; i++) {
                fail(breakers.get(0));
            }
            awaitCalling(Duration.ofSeconds(5), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));
            Thread.sleep(350);
            // Wins the fleet's lease; on a starved machine the store may answer the first asks late.
            long probe = CircuitBreaker.NO_PERMIT;
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (probe == CircuitBreaker.NO_PERMIT && System.nanoTime() < until) {
                probe = breakers.get(0).tryAcquirePermit();
                if (probe == CircuitBreaker.NO_PERMIT) {
                    Thread.sleep(20);
                }
            }
            assertThat(probe).as("the first instance's probe within 5 s").isNotEqualTo(CircuitBreaker.NO_PERMIT);

            Thread.currentThread().interrupt();
            long second;
            try {
                second = breakers.get(1).tryAcquirePermit();
            } finally {
                Thread.interrupted();
            }

            assertThat(second).as("a second probe while Redis is up").isEqualTo(CircuitBreaker.NO_PERMIT);
        }
    }

    @Test
    void withRejectAsFailureModeABlipNeverOverridesAnOperatorsForcedClosed() throws Exception {
        RedisStoreSettings reject = SETTINGS.withFailureMode(StoreFailureMode.REJECT);
        try (Fleet fleet = new Fleet(redis, 1, window(10, 5).build(), reject)) {
            CircuitBreaker breaker = fleet.breakers(unique("forced")).get(0);
            breaker.forceClosed();

            redis.kill();
            try {
                long until = System.nanoTime() + Duration.ofSeconds(1).toNanos();
                while (System.nanoTime() < until) {
                    succeed(breaker);
                    assertThat(breaker.getState()).isEqualTo(State.FORCED_CLOSED);
                    Thread.sleep(10);
                }
            } finally {
                redis.start();
            }
        }
    }

    @Test
    void aFailureReportedFromTheStoresOwnRedisClientThreadDoesNotWaitForItself() throws Exception {
        try (Fleet fleet = new Fleet(redis, 1, window(100, 100).build(), SETTINGS)) {
            String name = unique("event-loop");
            CircuitBreaker breaker = fleet.breakers(name).get(0);
            long permit = breaker.tryAcquirePermit();
            @SuppressWarnings("unchecked")
            io.lettuce.core.api.async.RedisAsyncCommands<byte[], byte[]> async =
                    (io.lettuce.core.api.async.RedisAsyncCommands<byte[], byte[]>)
                            fleet.factories.get(0).getConnection().getNativeConnection();
            java.util.concurrent.CompletableFuture<String> reportedOn = new java.util.concurrent.CompletableFuture<>();
            // The protected call completes on the client's event-loop thread, as a reactive call through
            // the same Redis client would: the answer to the report must come through that very thread.
            async.get("anything".getBytes()).thenRun(() -> {
                breaker.onError(permit, 0L, new IOException("down"));
                reportedOn.complete(Thread.currentThread().getName());
            });
            reportedOn.get(5, java.util.concurrent.TimeUnit.SECONDS);

            await(Duration.ofSeconds(5), () -> {
                try {
                    return "1".equals(hashField(name, "window", "failed"));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(fleet.stores.get(0).getFailureCount())
                    .as("Redis operations that got no answer")
                    .isZero();
            assertThat(fleet.stores.get(0).isAvailable()).isTrue();
        }
    }

    @Test
    void anOperatorChangeReplayedAfterAnOutageNeverOverwritesANewerOne() throws Exception {
        try (Fleet fleet = new Fleet(redis, 2, window(10, 5).build(), SETTINGS)) {
            String name = unique("replay");
            List<CircuitBreaker> breakers = fleet.breakers(name);
            redis.kill();
            try {
                awaitCalling(
                        Duration.ofSeconds(5),
                        Fleet::succeedEach,
                        breakers,
                        () -> fleet.stores.stream().noneMatch(RedisStateStore::isAvailable));
                breakers.get(0).forceOpen(); // Redis is down: applied locally, replayed later
                Thread.sleep(20);
            } finally {
                redis.start();
            }
            awaitCalling(
                    Duration.ofSeconds(10),
                    Fleet::succeedEach,
                    List.of(breakers.get(1)),
                    () -> fleet.stores.get(1).isAvailable());
            breakers.get(1).forceClosed(); // the newer operator change, made through the other instance

            awaitCalling(
                    Duration.ofSeconds(10),
                    Fleet::succeedEach,
                    breakers,
                    () -> fleet.stores.get(0).isAvailable());
            long until = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            while (System.nanoTime() < until) {
                Fleet.succeedEach(breakers);
                Thread.sleep(20);
            }

            assertThat(hashField(name, "state", "state")).isEqualTo("FORCED_CLOSED");
            assertThat(breakers).allMatch(b -> b.getState() == State.FORCED_CLOSED);
        }
    }

    @Test
    void aRefreshAnsweredBeforeAnOperatorsChangeNeverUndoesItEvenForAMoment() throws Exception {
        RedisStoreSettings quickRefresh = SETTINGS.withStateCacheTtl(Duration.ofMillis(60));
        try (Fleet fleet = new Fleet(redis, 1, window(10, 5).build(), quickRefresh)) {
            CircuitBreaker breaker = fleet.breakers(unique("ordered")).get(0);
            List<State> heard = new CopyOnWriteArrayList<>();
            breaker.addListener(new BreakerListener() {
                @Override
                public void onStateTransition(Transition transition) {
                    heard.add(transition.to());
                }
            });
            for (int round = 0; round < 20; round++) {
                State target = round % 2 == 0 ? State.FORCED_OPEN : State.FORCED_CLOSED;
                Thread.sleep(70); // the cached state is due
                redis.pause();
                Thread resume = Fleet.thread(() -> {
                    try {
                        Thread.sleep(20);
                        redis.resume();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                // A refresh goes out first and waits in Redis; the operator's change follows it.
                succeed(breaker);
                if (target == State.FORCED_OPEN) {
                    breaker.forceOpen();
                } else {
                    breaker.forceClosed();
                }
                resume.join();
                Thread.sleep(50);
                for (int i = 0; i < 5; i++) {
                    succeed(breaker);
                    Thread.sleep(15);
                }
            }

            // Each round's change, once: never back to the state before it, not even for a moment.
            List<State> expected = new java.util.ArrayList<>();
            for (int round = 0; round < 20; round++) {
                expected.add(round % 2 == 0 ? State.FORCED_OPEN : State.FORCED_CLOSED);
            }
            assertThat(heard).containsExactlyElementsOf(expected);
        }
    }
}
