package io.breaker;

import io.breaker.spi.Integration;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What integrations read through {@link Integration}, off the user-facing {@link CircuitBreaker}. */
class IntegrationTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("wholesaler", Breakers.smallWindow().build(), clock);

    @Test
    void theBreakerShowsUsersNoIntegrationMethod() {
        assertThat(Arrays.stream(CircuitBreaker.class.getMethods()).map(m -> m.getName()))
                .doesNotContain("isTimingCalls", "newRejection", "getClock");
    }

    @Test
    void anIntegrationTimesCallsWithTheBreakersClock() {
        assertThat(Integration.clock(breaker)).isSameAs(clock);
        assertThat(Integration.isTimingCalls(breaker)).isFalse();
    }

    @Test
    void aRejectionNamesTheStateAndTheWaitLeft() {
        Breakers.trip(breaker);
        clock.advance(Duration.ofSeconds(4));

        CircuitOpenException rejection = Integration.newRejection(breaker);

        assertThat(rejection.getState()).isEqualTo(State.OPEN);
        assertThat(rejection.getRetryAfterNanos()).isEqualTo(Breakers.WAIT.minusSeconds(4).toNanos());
    }

    @Test
    void onlyTheEngineInstallsTheAccess() {
        breaker.getState(); // CircuitBreaker is initialised: the engine installed its access
        assertThatThrownBy(() -> Integration.install(null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CircuitBreaker only");
    }
}
