package io.breaker.spring.observation;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;

/**
 * Denies the meters Micrometer's default observation handler would make of the breakers' observations:
 * the {@code breaker.call}, {@code breaker.fallback} and {@code breaker.transition} timers (with their
 * {@code .active} long-task timers), and the counters of {@code breaker.transition} events, on any
 * observation ({@code <observation>.breaker.transition}). The breakers' own meters ({@code breaker.calls},
 * {@code breaker.calls.rejected}, {@code breaker.transitions}, ...) count and time the same calls already;
 * the observations add spans, not a second timer per call.
 */
public final class BreakerObservationMeterFilter implements MeterFilter {

    private static final String[] OBSERVATIONS = {
        BreakerObservationDocumentation.CALL_NAME,
        BreakerObservationDocumentation.FALLBACK_NAME,
        BreakerObservationDocumentation.TRANSITION_NAME
    };

    private static final String EVENT_SUFFIX = "." + BreakerObservationDocumentation.TRANSITION_NAME;

    @Override
    public MeterFilterReply accept(Meter.Id id) {
        return isObservations(id.getName()) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
    }

    /** Whether {@code name} is a meter made of a breaker's observation. */
    static boolean isObservations(String name) {
        if (name.endsWith(EVENT_SUFFIX)) {
            return true;
        }
        for (String observation : OBSERVATIONS) {
            if (name.equals(observation) || name.equals(observation + ".active")) {
                return true;
            }
        }
        return false;
    }
}
