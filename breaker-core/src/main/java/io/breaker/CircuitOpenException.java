package io.breaker;

import java.util.concurrent.TimeUnit;

/**
 * Raised by {@link CircuitBreaker#execute} and {@link CircuitBreaker#acquirePermit()} when the
 * breaker rejects a call. It carries no stack trace (a rejection is an expected, frequent event, and
 * filling one costs microseconds), and its message is built only when read.
 *
 * <p>Do not retry on this exception: the breaker is telling you the dependency is unhealthy.
 */
public final class CircuitOpenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The breaker that rejected the call. */
    private final String breakerName;
    /** The breaker's state when it rejected the call. */
    private final State state;
    /** Nanoseconds until a probe is allowed, or -1 when unknown. */
    private final long retryAfterNanos;

    /**
     * @param breakerName     the breaker that rejected the call
     * @param state           its state at the time ({@code OPEN}, {@code HALF_OPEN} or {@code FORCED_OPEN})
     * @param retryAfterNanos time left until a probe is allowed, or -1 when unknown (forced open,
     *                        or half-open with every probe permit taken)
     */
    public CircuitOpenException(String breakerName, State state, long retryAfterNanos) {
        super(null, null, false, false);
        this.breakerName = breakerName;
        this.state = state;
        this.retryAfterNanos = retryAfterNanos;
    }

    /** The name of the breaker that rejected the call. */
    public String getBreakerName() {
        return breakerName;
    }

    /** The breaker's state when it rejected the call. */
    public State getState() {
        return state;
    }

    /** Time left until a probe is allowed, in nanoseconds, or -1 when unknown. */
    public long getRetryAfterNanos() {
        return retryAfterNanos;
    }

    @Override
    public String getMessage() {
        StringBuilder message = new StringBuilder(96)
                .append("Circuit breaker '")
                .append(breakerName)
                .append("' is ")
                .append(state)
                .append(" and rejects calls");
        if (retryAfterNanos >= 0) {
            message.append("; a probe is allowed in ")
                    .append(TimeUnit.NANOSECONDS.toMillis(retryAfterNanos))
                    .append(" ms");
        } else if (state == State.FORCED_OPEN) {
            message.append(" until an operator releases it");
        } else {
            message.append("; every probe permit is taken");
        }
        return message.toString();
    }
}
