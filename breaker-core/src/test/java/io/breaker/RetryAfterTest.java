package io.breaker;

import io.breaker.internal.Integration;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.breaker.Breakers.WAIT;
import static io.breaker.Breakers.fail;
import static io.breaker.Breakers.smallWindow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A failure that carries a Retry-After keeps the breaker OPEN as long as the dependency asked. */
class RetryAfterTest {

    private static final Duration ASKED = Duration.ofSeconds(120);

    private final FakeClock clock = new FakeClock();

    /** What a client throws when the server answered 503 with a Retry-After. */
    static final class Unavailable extends RuntimeException implements RetryAfterAware {
        private final Duration after;

        Unavailable(Duration after) {
            super("503 Service Unavailable", null, false, false);
            this.after = after;
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(after);
        }
    }

    /** A result of the application's own, counted as a failure, that knows the Retry-After. */
    record Busy(Duration after) implements RetryAfterAware {
        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(after);
        }
    }

    private CircuitBreaker breaker(BreakerConfig config) {
        return CircuitBreaker.of("wholesaler", config, clock);
    }

    private static void failWith(CircuitBreaker breaker, Throwable error) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onError(permit, 0L, error);
    }

    /** Three ordinary failures, then the fourth (the one that trips a smallWindow breaker) with {@code last}. */
    private static void tripWith(CircuitBreaker breaker, Throwable last) {
        fail(breaker, 3);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        failWith(breaker, last);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void aTripWithARetryAfterWaitsAsLongAsTheDependencyAsked() {
        CircuitBreaker breaker = breaker(smallWindow().build());

        tripWith(breaker, new Unavailable(ASKED));

        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(ASKED.toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);
        clock.advance(ASKED.minusNanos(1));
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(Duration.ofNanos(1));
        assertThat(breaker.tryAcquirePermit()).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void aTripWithoutOneWaitsTheConfiguredWait() {
        CircuitBreaker breaker = breaker(smallWindow().build());

        tripWith(breaker, new IOException("down"));

        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(WAIT.toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
    }

    @Test
    void theWaitIsCappedByMaxWaitDurationInOpenState() {
        CircuitBreaker breaker = breaker(
                smallWindow().maxWaitDurationInOpenState(Duration.ofSeconds(60)).build());

        tripWith(breaker, new Unavailable(Duration.ofHours(1)));

        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(60).toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);
    }

    @Test
    void unsetTheCapIsTenMinutesOrTheWaitIfLonger() {
        CircuitBreaker tenMinutes = breaker(smallWindow().build());
        tripWith(tenMinutes, new Unavailable(Duration.ofHours(1)));
        assertThat(tenMinutes.getRemainingWaitNanos())
                .isEqualTo(Duration.ofMinutes(10).toNanos());

        CircuitBreaker longWait = breaker(
                smallWindow().waitDurationInOpenState(Duration.ofMinutes(15)).build());
        tripWith(longWait, new Unavailable(Duration.ofHours(1)));
        assertThat(longWait.getRemainingWaitNanos())
                .isEqualTo(Duration.ofMinutes(15).toNanos());
        assertThat(longWait.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
    }

    @Test
    void aRetryAfterShorterThanTheWaitIsIgnored() {
        CircuitBreaker breaker = breaker(smallWindow().build());

        tripWith(breaker, new Unavailable(Duration.ofSeconds(3)));

        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(WAIT.toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
    }

    @Test
    void aFailedProbeWithARetryAfterWaitsAsLongAsAsked() {
        CircuitBreaker breaker = breaker(smallWindow().build());
        tripWith(breaker, new IOException("down"));
        clock.advance(WAIT);

        failWith(breaker, new Unavailable(Duration.ofSeconds(90)));

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(90).toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);
    }

    @Test
    void aLaterFailureNeverPushesTheWaitBack() {
        CircuitBreaker breaker = breaker(smallWindow().build());
        long late = breaker.tryAcquirePermit(); // admitted in CLOSED, reports after the trip
        long later = breaker.tryAcquirePermit();
        tripWith(breaker, new IOException("down"));
        clock.advance(Duration.ofSeconds(4));

        breaker.onError(late, 0L, new Unavailable(Duration.ofMinutes(5)));

        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(6).toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);

        CircuitBreaker asked = breaker(smallWindow().build());
        long lateToo = asked.tryAcquirePermit();
        tripWith(asked, new Unavailable(ASKED));
        asked.onError(lateToo, 0L, new Unavailable(Duration.ofMinutes(5)));
        assertThat(asked.getRemainingWaitNanos()).isEqualTo(ASKED.toNanos());
        breaker.releasePermit(later);
    }

    @Test
    void aRetryAfterAmongTheCausesCounts() {
        CircuitBreaker breaker = breaker(smallWindow().build());

        tripWith(breaker, new IllegalStateException("wrapped", new Unavailable(ASKED)));

        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(ASKED.toNanos());
    }

    @Test
    void aFailedResultCarriesItsRetryAfter() {
        CircuitBreaker breaker = breaker(smallWindow().build());
        fail(breaker, 3);
        long permit = breaker.tryAcquirePermit();
        long now = clock.nanoTime();

        Integration.onFailedResult(breaker, permit, now, now, Busy.class.getName(), new Busy(ASKED));

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(ASKED.toNanos());
        assertThat(breaker.getLastFailureType()).isEqualTo(Busy.class.getName());
    }

    @Test
    void theResolverIsAskedForTheFailureThatTripsOnly() {
        AtomicInteger asked = new AtomicInteger();
        RetryAfterResolver resolver = failure -> {
            asked.incrementAndGet();
            return failure instanceof IOException io && "busy".equals(io.getMessage())
                    ? Optional.of(Duration.ofSeconds(45))
                    : Optional.empty();
        };
        CircuitBreaker breaker =
                breaker(smallWindow().retryAfterResolver(resolver).build());
        failWith(breaker, new IOException("busy"));
        failWith(breaker, new IOException("busy"));
        breaker.execute(() -> "ok");
        assertThat(asked).hasValue(0);

        failWith(breaker, new IOException("busy")); // 3 failures in 4 calls: trips

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(asked).hasValue(1);
        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(45).toNanos());
    }

    @Test
    void aResolverThatThrowsOrSaysNothingLeavesTheConfiguredWait() {
        RetryAfterResolver broken = failure -> {
            throw new IllegalStateException("bug in the resolver");
        };
        CircuitBreaker breaker =
                breaker(smallWindow().retryAfterResolver(broken).build());
        tripWith(breaker, new IOException("down"));
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(WAIT.toNanos());

        CircuitBreaker zero = breaker(smallWindow().build());
        tripWith(zero, new Unavailable(Duration.ofSeconds(-5)));
        assertThat(zero.getRemainingWaitNanos()).isEqualTo(WAIT.toNanos());
    }

    @Test
    void aReconfigurationKeepsTheLongerWaitWithinTheNewBounds() {
        CircuitBreaker breaker = breaker(smallWindow().build());
        tripWith(breaker, new Unavailable(ASKED));

        breaker.reconfigure(
                smallWindow().waitDurationInOpenState(Duration.ofSeconds(20)).build());
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(ASKED.toNanos());

        breaker.reconfigure(
                smallWindow().maxWaitDurationInOpenState(Duration.ofSeconds(60)).build());
        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(60).toNanos());
    }

    @Test
    void aMaxBelowTheWaitIsRefusedNamingBothSettings() {
        BreakerConfig.Builder builder = smallWindow().maxWaitDurationInOpenState(Duration.ofSeconds(5));

        assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(
                        InvalidSettingException.class,
                        invalid -> assertThat(invalid.getSetting())
                                .isSameAs(BreakerConfig.MAX_WAIT_DURATION_IN_OPEN_STATE))
                .hasMessageContaining("maxWaitDurationInOpenState must be at least waitDurationInOpenState (PT10S)")
                .hasMessageContaining("was PT5S");
        assertThat(smallWindow().maxWaitDurationInOpenState(WAIT).build().getMaxWaitDurationInOpenState())
                .isEqualTo(WAIT);
    }
}
