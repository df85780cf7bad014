package io.breaker.spring.observation;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Micrometer's default meter handler makes a timer of every observation; the filter keeps those of the
 * breakers' observations out, and only those.
 */
class BreakerObservationMeterFilterTest {

    @Test
    void withoutTheFilterTheMeterHandlerWouldTimeEachCallASecondTime() {
        MeterRegistry meters = new SimpleMeterRegistry();

        tripThroughObservations(meters);

        assertThat(meters.find("breaker.call").timers()).isNotEmpty();
        assertThat(meters.find("breaker.call.breaker.transition").counters()).isNotEmpty();
    }

    @Test
    void theFilterDeniesTheTimersAndEventCountersOfTheBreakersObservationsOnly() {
        MeterRegistry meters = new SimpleMeterRegistry();
        meters.config().meterFilter(new BreakerObservationMeterFilter());

        tripThroughObservations(meters);

        assertThat(meters.getMeters())
                .extracting(meter -> meter.getId().getName())
                .doesNotContain(
                        "breaker.call",
                        "breaker.call.active",
                        "breaker.call.breaker.transition",
                        "breaker.transition",
                        "breaker.transition.active",
                        "request.breaker.transition")
                .contains("request", "request.active");
    }

    @Test
    void theNamesItDenies() {
        assertThat(BreakerObservationMeterFilter.isObservations("breaker.fallback"))
                .isTrue();
        assertThat(BreakerObservationMeterFilter.isObservations("breaker.fallback.active"))
                .isTrue();
        assertThat(BreakerObservationMeterFilter.isObservations("http.server.requests.breaker.transition"))
                .isTrue();
        assertThat(BreakerObservationMeterFilter.isObservations("breaker.calls"))
                .isFalse();
        assertThat(BreakerObservationMeterFilter.isObservations("breaker.transitions"))
                .isFalse();
        assertThat(BreakerObservationMeterFilter.isObservations("breaker.calls.rejected"))
                .isFalse();
    }

    /** A call observation with a trip in it, a transition with no observation current, one inside a request's. */
    private static void tripThroughObservations(MeterRegistry meters) {
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        BreakerObservations breakerObservations = new BreakerObservations(observations, null);
        BreakerRegistry registry = BreakerRegistry.of(BreakerConfig.ofDefaults(), Map.of());
        registry.onBreakerCreated(breaker -> breaker.addListener(breakerObservations));
        CircuitBreaker breaker = registry.breaker("shop");

        Observation call = breakerObservations.startCall(breaker, null);
        try (Observation.Scope scope = call.openScope()) {
            breaker.forceOpen();
        } finally {
            call.stop();
        }
        breaker.release();
        Observation.createNotStarted("request", observations).observe(breaker::forceOpen);
    }
}
