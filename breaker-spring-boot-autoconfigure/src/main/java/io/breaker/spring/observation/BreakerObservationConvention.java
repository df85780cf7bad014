package io.breaker.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and keys of a protected call's observation. A bean of this type replaces
 * {@link DefaultBreakerObservationConvention}.
 */
public interface BreakerObservationConvention extends ObservationConvention<BreakerCallContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof BreakerCallContext;
    }
}
