package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shared breaker whose own window trips it while the store allows it (the store is silent) tells
 * the store, once, with the cause and the wait it opened for; a trip the fleet decides is not a trip
 * made alone.
 */
class SharedTripAloneTest {

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
            .minimumNumberOfCalls(4)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(5))
            .build();

    private static CircuitBreaker failing(FakeSharedState store, int failures) {
        CircuitBreaker breaker = CircuitBreaker.of("alone", CONFIG, new FakeClock(0L), (name, config) -> store);
        for (int i = 0; i < failures; i++) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.onError(permit, 0L, new IOException("down"));
            }
        }
        return breaker;
    }

    @Test
    void aTripMadeAloneIsToldToTheStoreOnce() {
        FakeSharedState store = FakeSharedState.silent(true);
        CircuitBreaker breaker = failing(store, 6); // trips at the 4th; the rest are rejected

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(store.trippedAlone)
                .containsExactly(new FakeSharedState.TrippedAlone(
                        TransitionCause.FAILURE_RATE, Duration.ofSeconds(5).toNanos(), WaitReason.CONFIGURED));
    }

    @Test
    void noTripAloneWhileTheFleetDecides() {
        FakeSharedState store = FakeSharedState.silent(false);
        CircuitBreaker breaker = failing(store, 6);

        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // the fleet's window decides, and said nothing
        assertThat(store.trippedAlone).isEmpty();
    }
}
