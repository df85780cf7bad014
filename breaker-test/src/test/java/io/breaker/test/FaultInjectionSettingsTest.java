package io.breaker.test;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.breaker.test.assertj.BreakerAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A rehearsal's {@code breakers.faults} section, read and checked as start-up reads it, without Spring. */
class FaultInjectionSettingsTest {

    private static final BreakerSettings REHEARSAL = BreakerSettings.fromYaml("rehearsal-settings.yml");

    @Test
    void injectedFailuresOpenTheBreakerWithoutRunningTheCall() {
        BreakerRegistry registry = REHEARSAL.registry(BreakerClock.startingNow());
        CircuitBreaker wholesaler = registry.breaker("wholesaler");
        AtomicInteger calls = new AtomicInteger();

        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> wholesaler.execute(calls::incrementAndGet)).isInstanceOf(ConnectException.class);
        }

        assertThat(wholesaler).isOpen().hasFailureRate(100.0);
        assertThat(calls).hasValue(0);
    }

    @Test
    void aBadFaultValueFailsAsStartUpWould() {
        assertThatThrownBy(() -> BreakerSettings.fromProperties(Map.of("breakers.faults.wholesaler.latency-rate", 120)))
                .isInstanceOf(InvalidBreakerSettingsException.class)
                .hasMessageContaining("breakers.faults.wholesaler.latency-rate")
                .hasMessageContaining("a number in [0, 100]");
    }
}
