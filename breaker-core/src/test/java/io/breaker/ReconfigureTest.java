package io.breaker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.breaker.Breakers.fail;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.succeed;
import static io.breaker.Breakers.trip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings changed on a running breaker (an operator's change at runtime). */
class ReconfigureTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker =
            CircuitBreaker.of("wholesaler", smallWindow().build(), clock);

    @Test
    void aNewThresholdDecidesTheNextCallsAtOnce() {
        breaker.reconfigure(smallWindow().failureRateThreshold(25).build());

        succeed(breaker, 3);
        fail(breaker, 1);

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getConfig().getFailureRateThreshold()).isEqualTo(25f);
    }

    @Test
    void aClosedBreakerStartsAFreshWindowAndKeepsItsState() {
        fail(breaker, 3);
        List<Transition> told = new ArrayList<>();
        breaker.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                told.add(transition);
            }
        });

        breaker.reconfigure(smallWindow().minimumNumberOfCalls(2).build());

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(breaker.getMetrics().calls()).isZero();
        assertThat(told).isEmpty();
        fail(breaker, 2);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void aShorterWaitLetsAnOpenBreakerProbeSooner() {
        trip(breaker);

        breaker.reconfigure(
                smallWindow().waitDurationInOpenState(Duration.ofSeconds(2)).build());
        clock.advance(Duration.ofSeconds(2));

        assertThat(breaker.tryAcquirePermit()).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void aLongerWaitKeepsAnOpenBreakerOpenLonger() {
        trip(breaker);

        breaker.reconfigure(
                smallWindow().waitDurationInOpenState(Duration.ofSeconds(60)).build());
        clock.advance(Breakers.WAIT);

        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(50).toNanos());
    }

    @Test
    void slowCallDetectionCanBeSwitchedOn() {
        assertThat(io.breaker.internal.Integration.isTimingCalls(breaker)).isFalse();

        breaker.reconfigure(smallWindow()
                .slowCallDurationThreshold(Duration.ofMillis(100))
                .slowCallRateThreshold(50)
                .build());

        assertThat(io.breaker.internal.Integration.isTimingCalls(breaker)).isTrue();
        for (int i = 0; i < 4; i++) {
            long permit = breaker.tryAcquirePermit();
            breaker.onSuccess(permit, Duration.ofMillis(200).toNanos());
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void aForcedBreakerStaysForced() {
        breaker.forceOpen();

        breaker.reconfigure(smallWindow().failureRateThreshold(10).build());

        assertThat(breaker.getState()).isEqualTo(State.FORCED_OPEN);
        assertThat(breaker.getConfig().getFailureRateThreshold()).isEqualTo(10f);
    }

    @Test
    void theWindowTypeCannotChangeAndNothingElseChangesThen() {
        BreakerConfig timeBased = smallWindow()
                .slidingWindow(SlidingWindowType.TIME_BASED, 10)
                .failureRateThreshold(10)
                .build();

        assertThatThrownBy(() -> breaker.reconfigure(timeBased))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slidingWindowType cannot change");
        assertThat(breaker.getConfig().getFailureRateThreshold()).isEqualTo(50f);
    }
}
