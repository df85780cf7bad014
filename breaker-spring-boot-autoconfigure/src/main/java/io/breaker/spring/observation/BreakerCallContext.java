package io.breaker.spring.observation;

import io.breaker.CallOutcome;
import io.breaker.State;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What one protected call's observation knows: the breaker, its state when the call asked to pass,
 * and the outcome once the breaker recorded it ({@code null} until then, and for a call that ended
 * without an outcome: cancelled before any result, or given up by its caller).
 */
public final class BreakerCallContext extends Observation.Context {

    private final String breakerName;
    private final State stateAtAdmission;
    /** Written by the thread that records the outcome, read by the one that stops the observation. */
    private volatile @Nullable String outcome;

    public BreakerCallContext(String breakerName, State stateAtAdmission) {
        this.breakerName = breakerName;
        this.stateAtAdmission = stateAtAdmission;
    }

    /** The breaker's name. */
    public String getBreakerName() {
        return breakerName;
    }

    /** The breaker's state when the call asked for a permit. */
    public State getStateAtAdmission() {
        return stateAtAdmission;
    }

    /**
     * The outcome, one of {@link BreakerObservationDocumentation.Outcomes}' values, or {@code null}
     * while none was recorded.
     */
    public @Nullable String getOutcome() {
        return outcome;
    }

    /** Sets the outcome unless one is set already: the first recorded is the call's. */
    void outcome(String value) {
        if (outcome == null) {
            outcome = value;
        }
    }

    /** The outcome the breaker recorded as {@code recorded}, as a value of the outcome key. */
    static String outcomeOf(CallOutcome recorded) {
        return switch (recorded) {
            case SUCCESS -> BreakerObservationDocumentation.Outcomes.SUCCESS;
            case SLOW_SUCCESS, SLOW_CANCELLED -> BreakerObservationDocumentation.Outcomes.SLOW;
            case FAILURE, SLOW_FAILURE -> BreakerObservationDocumentation.Outcomes.FAILURE;
            case IGNORED -> BreakerObservationDocumentation.Outcomes.IGNORED;
        };
    }
}
