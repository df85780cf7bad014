package io.breaker;

/**
 * Observes one breaker. Every method has an empty default, so a listener implements only what it
 * needs. Methods run on a calling thread, after the fact. Transitions are reported once each, one at
 * a time, in the order they happened: by the caller that won the transition, or, when it won while
 * an earlier transition was still being reported on another thread, by that thread, right after
 * the earlier one (no caller ever waits for another's listeners). A listener that throws is logged
 * and otherwise ignored; it never breaks the breaker. With no listener registered the breaker
 * builds no event at all.
 */
public interface BreakerListener {

    /** The breaker changed state. */
    default void onStateTransition(Transition transition) {}

    /**
     * A permitted call ended and was recorded.
     *
     * @param durationNanos the call's duration, or 0 when neither slow-call detection nor a listener
     *                      asked for it to be measured (see {@link #wantsCallDurations()}); the
     *                      two-step API passes what the caller gave
     */
    default void onCallRecorded(CircuitBreaker breaker, CallOutcome outcome, long durationNanos) {}

    /** A call was rejected because the breaker is open. */
    default void onCallRejected(CircuitBreaker breaker) {}

    /**
     * The breaker's fault injection delayed a call or failed it before its method ran (see
     * {@link Faults}); the call's outcome is then recorded as any other.
     */
    default void onFaultInjected(CircuitBreaker breaker, FaultKind kind) {}

    /**
     * Whether this listener needs the real durations of calls in {@link #onCallRecorded}. A listener
     * that watches only transitions or rejections returns {@code false}, so that it does not make the
     * breaker read the clock around every call (it then may receive 0 as a duration). Read when the
     * listener is added or removed.
     */
    default boolean wantsCallDurations() {
        return true;
    }
}
