package io.breaker;

/**
 * The states of a {@link CircuitBreaker}.
 *
 * <p>{@link #CLOSED}, {@link #OPEN} and {@link #HALF_OPEN} are automatic: the breaker moves between
 * them on its own. {@link #FORCED_OPEN} and {@link #FORCED_CLOSED} are operator states: the breaker
 * stays in them until {@link CircuitBreaker#release() released}.
 */
public enum State {

    /** Calls pass; their outcomes are counted in the sliding window, which may trip the breaker. */
    CLOSED,

    /** Calls are rejected until the wait has elapsed; then the next caller becomes a probe. */
    OPEN,

    /** Only the permitted probes pass; every other call is rejected. */
    HALF_OPEN,

    /** Set by an operator: every call is rejected until the breaker is released. */
    FORCED_OPEN,

    /** Set by an operator: every call passes and is recorded, and the breaker never trips. */
    FORCED_CLOSED;

    /** Whether a call is let through in this state without any further check. */
    public boolean permitsAllCalls() {
        return this == CLOSED || this == FORCED_CLOSED;
    }

    /** Whether this state was set by an operator rather than reached automatically. */
    public boolean isForced() {
        return this == FORCED_OPEN || this == FORCED_CLOSED;
    }
}
