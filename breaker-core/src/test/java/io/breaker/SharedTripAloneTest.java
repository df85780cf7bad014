package io.breaker;

import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

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

    private record Told(TransitionCause cause, long waitNanos, WaitReason reason) {}

    /** A store that answers nothing; whether the local window may trip is the test's. */
    private static final class SilentStore implements SharedState {
        private final boolean localTrip;
        final List<Told> trippedAlone = new CopyOnWriteArrayList<>();

        SilentStore(boolean localTrip) {
            this.localTrip = localTrip;
        }

        @Override
        public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {}

        @Override
        public void recordSuccess() {}

        @Override
        public SharedVerdict recordFailure(CallOutcome outcome) {
            return null;
        }

        @Override
        public boolean allowsLocalTrip() {
            return localTrip;
        }

        @Override
        public void trippedAlone(TransitionCause cause, long waitNanos, WaitReason waitReason) {
            trippedAlone.add(new Told(cause, waitNanos, waitReason));
        }

        @Override
        public SharedVerdict tryAcquireProbe() {
            return null;
        }

        @Override
        public SharedVerdict probeFailed() {
            return null;
        }

        @Override
        public SharedVerdict probesSucceeded() {
            return null;
        }

        @Override
        public SharedVerdict operatorSets(State target) {
            return null;
        }
    }

    private static CircuitBreaker failing(SilentStore store, int failures) {
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
        SilentStore store = new SilentStore(true);
        CircuitBreaker breaker = failing(store, 6); // trips at the 4th; the rest are rejected

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(store.trippedAlone)
                .containsExactly(new Told(
                        TransitionCause.FAILURE_RATE, Duration.ofSeconds(5).toNanos(), WaitReason.CONFIGURED));
    }

    @Test
    void noTripAloneWhileTheFleetDecides() {
        SilentStore store = new SilentStore(false);
        CircuitBreaker breaker = failing(store, 6);

        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // the fleet's window decides, and said nothing
        assertThat(store.trippedAlone).isEmpty();
    }
}
