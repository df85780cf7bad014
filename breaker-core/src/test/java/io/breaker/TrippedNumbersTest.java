package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In OPEN and HALF_OPEN a breaker's numbers are those of the window that tripped it, and so are the
 * numbers of the transitions that follow the trip, however long it stays OPEN: a time window that
 * kept aging would show an OPEN breaker with no calls and no failure rate.
 */
class TrippedNumbersTest {

    private static BreakerConfig config(SlidingWindowType type) {
        return BreakerConfig.builder()
                .slidingWindow(type, 10)
                .minimumNumberOfCalls(4)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofSeconds(60))
                .build();
    }

    private static void tripsAndKeepsItsNumbers(SlidingWindowType type) {
        FakeClock clock = new FakeClock(0L);
        CircuitBreaker breaker = CircuitBreaker.of("numbers", config(type), clock);
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);
        breaker.onSuccess(breaker.tryAcquirePermit(), 0L);
        for (int i = 0; i < 3; i++) {
            breaker.onError(breaker.tryAcquirePermit(), 0L, new IOException("down"));
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);

        clock.advanceMillis(30_000); // three times the time window's 10 s
        assertNumbersOfTheTrip(breaker.getMetrics(), "OPEN after 30 s");

        clock.advanceMillis(31_000);
        long probe = breaker.tryAcquirePermit();
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        assertNumbersOfTheTrip(breaker.getMetrics(), "HALF_OPEN");
        breaker.onSuccess(probe, 0L);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);

        List<Transition> told = listener.transitions;
        assertThat(told).extracting(Transition::to).containsExactly(State.OPEN, State.HALF_OPEN, State.CLOSED);
        for (Transition transition : told) {
            assertNumbersOfTheTrip(transition.metrics(), transition.from() + " -> " + transition.to());
        }
        assertThat(breaker.getMetrics().calls())
                .as("a new window after closing")
                .isZero();
    }

    private static void assertNumbersOfTheTrip(BreakerMetrics numbers, String when) {
        assertThat(numbers.calls()).as(when + ": calls").isEqualTo(4);
        assertThat(numbers.failedCalls()).as(when + ": failed calls").isEqualTo(3);
        assertThat(numbers.failureRate()).as(when + ": failure rate").isEqualTo(75f);
    }

    @Test
    void timeWindow() {
        tripsAndKeepsItsNumbers(SlidingWindowType.TIME_BASED);
    }

    @Test
    void countWindow() {
        tripsAndKeepsItsNumbers(SlidingWindowType.COUNT_BASED);
    }
}
