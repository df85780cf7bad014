package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.store.StoreFailureMode;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static io.breaker.redis.Fleet.allIn;
import static io.breaker.redis.Fleet.await;
import static io.breaker.redis.Fleet.awaitCalling;
import static org.assertj.core.api.Assertions.assertThat;

/** Redis killed, paused and back, under calling threads: callers never notice, breakers keep protecting. */
@Tag(BootLine.TAG)
class StoreFailureTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final Duration TTL = Duration.ofMillis(200);
    private static final Duration TIMEOUT = Duration.ofMillis(100);
    private static final RedisStoreSettings SETTINGS =
            RedisStoreSettings.defaults().withStateCacheTtl(TTL).withTimeout(TIMEOUT);

    private static BreakerConfig config(int minimumCalls) {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, Math.max(10, minimumCalls))
                .minimumNumberOfCalls(minimumCalls)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMinutes(1))
                .build();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void redisKilledMidRunCallsAreStillServedLocalProtectionTripsAndTheInstancesConvergeWhenItIsBack()
            throws Exception {
        try (Fleet fleet = new Fleet(redis, 3, config(5), SETTINGS);
                Callers callers = new Callers(fleet.breakers(unique("killed")))) {
            List<CircuitBreaker> breakers = callers.breakers;
            callers.start();
            await(Duration.ofSeconds(5), () -> callers.served.get() > 100);

            redis.kill();
            long servedAtKill = callers.served.get();
            await(Duration.ofSeconds(5), () -> callers.served.get() > servedAtKill + 100);
            await(Duration.ofSeconds(5), () -> fleet.stores.stream().noneMatch(RedisStateStore::isAvailable));

            callers.failing.set(true);
            await(Duration.ofSeconds(5), () -> allIn(breakers, State.OPEN)); // each instance on its own window
            assertThat(fleet.stores).allMatch(store -> store.getFailureCount() > 0);

            callers.close();
            assertThat(callers.leaked).isEmpty();

            redis.start();
            // Calls (rejected ones too) are what try Redis again: at most once per TTL per instance.
            awaitCalling(
                    Duration.ofSeconds(20),
                    Fleet::succeedEach,
                    breakers,
                    () -> fleet.stores.stream().allMatch(RedisStateStore::isAvailable));
            // The restarted Redis is empty: the shared state is CLOSED, and every instance adopts it.
            awaitCalling(Duration.ofSeconds(5), Fleet::succeedEach, breakers, () -> allIn(breakers, State.CLOSED));
            breakers.get(0).forceOpen();
            awaitCalling(Duration.ofSeconds(2), Fleet::succeedEach, breakers, () -> allIn(breakers, State.FORCED_OPEN));
        }
    }

    @Test
    void redisPausedNoCallWaitsLongerThanTheStoreTimeoutAndTheInstancesConvergeWhenItResumes() throws Exception {
        // A high minimum: the failures below never trip anything, so every one of them is reported.
        try (Fleet fleet = new Fleet(redis, 3, config(100_000), SETTINGS);
                Callers callers = new Callers(fleet.breakers(unique("paused")))) {
            List<CircuitBreaker> breakers = callers.breakers;
            callers.failing.set(true);
            callers.start();
            await(Duration.ofSeconds(5), () -> callers.served.get() > 50);

            redis.pause();
            try {
                long servedAtPause = callers.served.get();
                callers.slowest.set(0L);
                await(Duration.ofSeconds(5), () -> callers.served.get() > servedAtPause + 200);
                await(Duration.ofSeconds(5), () -> fleet.stores.stream().noneMatch(RedisStateStore::isAvailable));
            } finally {
                redis.resume();
            }
            // Bounded by the timeout, not by the client's 10 s: generous slack for a busy machine.
            assertThat(Duration.ofNanos(callers.slowest.get())).isLessThan(TIMEOUT.multipliedBy(5));
            assertThat(fleet.stores).allMatch(store -> store.getFailureCount() > 0);
            // Each failure reported while Redis hung was a caller that stopped waiting: counted, for the bound
            // on calls a fleet lets through while it trips.
            assertThat(fleet.stores).allMatch(store -> store.getTimeoutCount() > 0);

            await(Duration.ofSeconds(10), () -> fleet.stores.stream().allMatch(RedisStateStore::isAvailable));
            callers.close();
            assertThat(callers.leaked).isEmpty();
            breakers.get(2).forceOpen();
            awaitCalling(Duration.ofSeconds(2), Fleet::succeedEach, breakers, () -> allIn(breakers, State.FORCED_OPEN));
        }
    }

    @Test
    void failClosedRejectsCallsWhileRedisIsDownAndReopensTheTrafficWhenItIsBack() throws Exception {
        RedisStoreSettings failClosed = SETTINGS.withFailureMode(StoreFailureMode.REJECT);
        try (Fleet fleet = new Fleet(redis, 2, config(5), failClosed)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("closed"));
            redis.kill();
            awaitCalling(Duration.ofSeconds(5), Fleet::succeedEach, breakers, () -> allIn(breakers, State.OPEN));
            assertThat(breakers).noneMatch(b -> b.tryAcquirePermit() != CircuitBreaker.NO_PERMIT);

            redis.start();
            awaitCalling(Duration.ofSeconds(20), Fleet::succeedEach, breakers, () -> allIn(breakers, State.CLOSED));
            assertThat(breakers).allMatch(b -> b.tryAcquirePermit() != CircuitBreaker.NO_PERMIT);
        }
    }

    /** One calling thread per breaker, through {@link CircuitBreaker#execute}, timing every call. */
    private static final class Callers implements AutoCloseable {

        final List<CircuitBreaker> breakers;
        final AtomicBoolean failing = new AtomicBoolean();
        final AtomicLong served = new AtomicLong();
        final AtomicLong slowest = new AtomicLong();
        final ConcurrentLinkedQueue<Throwable> leaked = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();

        Callers(List<CircuitBreaker> breakers) {
            this.breakers = breakers;
        }

        void start() {
            for (CircuitBreaker breaker : breakers) {
                threads.add(Fleet.thread(() -> {
                    while (running.get()) {
                        long start = System.nanoTime();
                        try {
                            breaker.execute(() -> {
                                if (failing.get()) {
                                    throw new UncheckedIOException(new IOException("dependency down"));
                                }
                                return "ok";
                            });
                            served.incrementAndGet();
                        } catch (UncheckedIOException dependencyFailed) {
                            served.incrementAndGet();
                        } catch (CircuitOpenException rejected) {
                            // counted neither way
                        } catch (Throwable other) {
                            leaked.add(other);
                        }
                        slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                        LockSupport.parkNanos(100_000L); // busy callers, without burning a core
                    }
                }));
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join();
            }
        }
    }
}
