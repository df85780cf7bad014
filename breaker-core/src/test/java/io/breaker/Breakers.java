package io.breaker;

import java.io.IOException;
import java.time.Duration;

/** Small helpers shared by the engine's tests. */
final class Breakers {

    static final Duration WAIT = Duration.ofSeconds(10);

    private Breakers() {}

    /** Count window of 10, at least 4 calls, 50% failures, 10 s open, one probe. */
    static BreakerConfig.Builder smallWindow() {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
                .minimumNumberOfCalls(4)
                .failureRateThreshold(50)
                .waitDurationInOpenState(WAIT);
    }

    static void succeed(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            breaker.execute(() -> "ok");
        }
    }

    static void fail(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.onError(permit, 0L, new IOException("down"));
            }
        }
    }

    /** Fails calls, one at a time, until the breaker trips (each failure is admitted and recorded). */
    static void trip(CircuitBreaker breaker) {
        for (int i = 0; i < 1_000 && breaker.getState() == State.CLOSED; i++) {
            fail(breaker, 1);
        }
        if (breaker.getState() != State.OPEN) {
            throw new AssertionError("expected the breaker to trip, it is " + breaker.getState());
        }
    }
}
