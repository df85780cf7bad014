package io.breaker;

/**
 * Observes one breaker. Every method has an empty default, so a listener implements only what it
 * needs. Methods run on the calling thread, after the fact: a transition is reported once, by the
 * caller that won it. A listener that throws is logged and otherwise ignored; it never breaks the
 * breaker. With no listener registered the breaker builds no event at all.
 */
public interface BreakerListener {

    /** The breaker changed state. */
    default void onStateTransition(Transition transition) {
    }

    /**
     * A permitted call ended and was recorded.
     *
     * @param durationNanos the call's duration, or 0 when neither slow-call detection nor a listener
     *                      asked for it to be measured (the two-step API passes what the caller gave)
     */
    default void onCallRecorded(CircuitBreaker breaker, CallOutcome outcome, long durationNanos) {
    }

    /** A call was rejected because the breaker is open. */
    default void onCallRejected(CircuitBreaker breaker) {
    }
}
