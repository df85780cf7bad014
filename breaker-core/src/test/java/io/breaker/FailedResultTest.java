package io.breaker;

import io.breaker.internal.Integration;
import org.junit.jupiter.api.Test;

import static io.breaker.Breakers.smallWindow;
import static org.assertj.core.api.Assertions.assertThat;

/** A result an integration counts as a failure: recorded as one, whatever the exception rules say. */
class FailedResultTest {

    private final FakeClock clock = new FakeClock();

    @Test
    void failedResultsTripTheBreakerEvenWhenTheExceptionRulesRecordNothing() {
        // record-exceptions naming only Errors: no exception of a client would count
        CircuitBreaker breaker = CircuitBreaker.of(
                "wholesaler", smallWindow().recordExceptions(Error.class).build(), clock);

        for (int i = 0; i < 4; i++) {
            breaker.onFailedResult(breaker.tryAcquirePermit(), 0L, "org.example.Answer");
        }

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getLastFailureType()).isEqualTo("org.example.Answer");
    }

    @Test
    void failedResultsCountInTheFailureRateLikeFailures() {
        CircuitBreaker breaker = CircuitBreaker.of("wholesaler", smallWindow().build(), clock);

        Breakers.succeed(breaker, 3);
        breaker.onFailedResult(breaker.tryAcquirePermit(), 0L, "org.example.Answer");

        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // 1 of 4: 25 %
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void aFailedResultOfAProbeReopensTheBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("wholesaler", smallWindow().build(), clock);
        Breakers.trip(breaker);
        clock.advance(Breakers.WAIT);
        long probe = breaker.tryAcquirePermit();
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);

        long start = Integration.clock(breaker).nanoTime();
        Integration.onFailedResult(breaker, probe, start, start, "org.example.Answer");

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }
}
