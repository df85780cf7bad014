package io.breaker.spring.observation;

import io.breaker.spring.observation.BreakerObservationDocumentation.Keys;
import io.breaker.spring.observation.BreakerObservationDocumentation.Outcomes;
import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

import java.util.Locale;

/**
 * {@code breaker.call}, contextual name {@code breaker <name>}, with the keys
 * {@code circuitbreaker.name}, {@code circuitbreaker.state} (at admission) and {@code breaker.outcome}.
 */
public class DefaultBreakerObservationConvention implements BreakerObservationConvention {

    /** The convention, shared. */
    public static final DefaultBreakerObservationConvention INSTANCE = new DefaultBreakerObservationConvention();

    @Override
    public String getName() {
        return BreakerObservationDocumentation.CALL_NAME;
    }

    @Override
    public String getContextualName(BreakerCallContext context) {
        return "breaker " + context.getBreakerName();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(BreakerCallContext context) {
        @Nullable String outcome = context.getOutcome();
        return KeyValues.of(
                Keys.NAME.withValue(context.getBreakerName()),
                Keys.STATE.withValue(context.getStateAtAdmission().name().toLowerCase(Locale.ROOT)),
                Keys.OUTCOME.withValue(outcome == null ? Outcomes.CANCELLED : outcome));
    }
}
