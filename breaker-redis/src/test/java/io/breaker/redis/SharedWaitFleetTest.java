package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.RetryAfterAware;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.WaitReason;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static io.breaker.redis.Fleet.allIn;
import static io.breaker.redis.Fleet.await;
import static io.breaker.redis.Fleet.awaitCalling;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances sharing one breaker through a real Redis agree on a wait longer than configured: the
 * wait grown by failed probes (wait-multiplier), and the wait a Retry-After asked for. The instance
 * that opens the fleet passes the wait it computed, Redis keeps it with the count of failed probes,
 * and the other instance adopts the same reopen time, so nobody probes early.
 */
@Tag(BootLine.TAG)
class SharedWaitFleetTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final Duration WAIT = Duration.ofMillis(300);
    private static final RedisStoreSettings SETTINGS = RedisStoreSettings.defaults()
            .withStateCacheTtl(Duration.ofMillis(200))
            .withTimeout(Duration.ofMillis(150));

    private static BreakerConfig.Builder config() {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                .minimumNumberOfCalls(4)
                .failureRateThreshold(50)
                .waitDurationInOpenState(WAIT)
                .maxWaitDurationInOpenState(Duration.ofSeconds(20))
                .probeLease(Duration.ofSeconds(10));
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A client's failure that carries the server's Retry-After. */
    static final class Throttled extends IOException implements RetryAfterAware {
        private final Duration after;

        Throttled(Duration after) {
            super("429 Too Many Requests");
            this.after = after;
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(after);
        }
    }

    private static void fail(CircuitBreaker breaker, IOException error) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onError(permit, 0L, error);
    }

    /** Calls {@code breaker} until one call is let through as the probe; returns its permit. */
    private static long awaitProbe(CircuitBreaker breaker, Duration deadline) {
        long[] permit = {CircuitBreaker.NO_PERMIT};
        await(deadline, () -> (permit[0] = breaker.tryAcquirePermit()) != CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        return permit[0];
    }

    @Test
    void bothInstancesWaitTheWaitGrownByTheFleetsFailedProbes() throws Exception {
        try (Fleet fleet = new Fleet(redis, 2, config().waitMultiplier(6).build(), SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("backoff"));
            CircuitBreaker a = breakers.get(0);
            CircuitBreaker b = breakers.get(1);
            awaitCalling(Duration.ofSeconds(10), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));

            // a wins the first probe once the fleet's 300 ms are over, and it fails: 300 ms * 6 = 1.8 s.
            a.onError(awaitProbe(a, Duration.ofSeconds(5)), 0L, new IOException("still down"));
            assertThat(a.getState()).isEqualTo(State.OPEN);
            assertThat(a.getWaitReason()).isEqualTo(WaitReason.BACKOFF);
            assertThat(a.getRemainingWaitNanos())
                    .isGreaterThan(Duration.ofMillis(1_500).toNanos());

            // b finds its own short wait over, asks the fleet, and adopts the fleet's grown wait.
            awaitCalling(
                    Duration.ofSeconds(5),
                    Fleet::succeedEach,
                    List.of(b),
                    () -> b.getRemainingWaitNanos() > Duration.ofSeconds(1).toNanos());
            assertThat(b.getWaitReason()).isEqualTo(WaitReason.BACKOFF);
            assertThat(Math.abs(a.getRemainingWaitNanos() - b.getRemainingWaitNanos()))
                    .isLessThan(Duration.ofMillis(300).toNanos());

            // Nobody probes before the grown wait is over; then one instance does.
            while (a.getRemainingWaitNanos() > Duration.ofMillis(100).toNanos()) {
                assertThat(a.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
                assertThat(b.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
                Thread.sleep(20);
            }
            long[] probes = {CircuitBreaker.NO_PERMIT, CircuitBreaker.NO_PERMIT};
            await(Duration.ofSeconds(5), () -> {
                for (int i = 0; i < 2; i++) {
                    if (probes[i] == CircuitBreaker.NO_PERMIT) {
                        probes[i] = breakers.get(i).tryAcquirePermit();
                    }
                }
                return probes[0] != CircuitBreaker.NO_PERMIT || probes[1] != CircuitBreaker.NO_PERMIT;
            });
            int prober = probes[0] != CircuitBreaker.NO_PERMIT ? 0 : 1;
            assertThat(breakers.get(1 - prober).tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);

            // The probe succeeds: the fleet closes, and its next trip waits the configured 300 ms again.
            breakers.get(prober).onSuccess(probes[prober], 0L);
            awaitCalling(Duration.ofSeconds(5), Fleet::succeedEach, breakers, () -> allIn(breakers, State.CLOSED));
            awaitCalling(Duration.ofSeconds(10), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));
            assertThat(breakers).allSatisfy(breaker -> {
                assertThat(breaker.getRemainingWaitNanos()).isLessThanOrEqualTo(WAIT.toNanos());
                assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
            });
        }
    }

    @Test
    void aRetryAfterOnTheFailureThatTripsTheFleetIsEveryInstancesWait() {
        try (Fleet fleet = new Fleet(redis, 2, config().build(), SETTINGS)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("retry-after"));
            CircuitBreaker a = breakers.get(0);
            CircuitBreaker b = breakers.get(1);
            for (int i = 0; i < 3; i++) {
                fail(b, new IOException("down")); // three of the four the fleet's window needs
            }
            assertThat(allIn(breakers, State.CLOSED)).isTrue();

            fail(a, new Throttled(Duration.ofSeconds(3))); // the fourth trips the fleet
            assertThat(a.getState()).isEqualTo(State.OPEN);
            assertThat(a.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);

            awaitCalling(Duration.ofSeconds(5), Fleet::succeedEach, List.of(b), () -> b.getState() == State.OPEN);
            assertThat(b.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);
            assertThat(b.getRemainingWaitNanos())
                    .isGreaterThan(Duration.ofSeconds(2).toNanos());

            // Well past the configured 300 ms, nobody has probed.
            await(
                    Duration.ofSeconds(5),
                    () -> b.getRemainingWaitNanos() < Duration.ofSeconds(2).toNanos());
            assertThat(a.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
            assertThat(b.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
            assertThat(allIn(breakers, State.OPEN)).isTrue();
        }
    }
}
