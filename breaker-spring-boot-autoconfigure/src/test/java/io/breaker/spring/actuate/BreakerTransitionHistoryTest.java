package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BreakerTransitionHistoryTest {

    @Test
    void clearForgetsTheTransitionsKeptSoFarAndKeepsListening() {
        BreakerRegistry registry = BreakerRegistry.ofDefaults();
        BreakerTransitionHistory history = BreakerTransitionHistory.bind(registry, 3);
        CircuitBreaker breaker = registry.breaker("wholesaler");
        breaker.forceOpen();
        assertThat(history.recent("wholesaler")).hasSize(1);

        history.clear();
        assertThat(history.recent("wholesaler")).isEmpty();

        breaker.release();
        assertThat(history.recent("wholesaler"))
                .singleElement()
                .satisfies(transition -> assertThat(transition.to()).isEqualTo(io.breaker.State.CLOSED));
    }
}
