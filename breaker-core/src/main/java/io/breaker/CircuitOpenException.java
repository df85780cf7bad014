package io.breaker;

import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * Raised by {@link CircuitBreaker#execute} and {@link CircuitBreaker#acquirePermit()} when the
 * breaker rejects a call. It carries no stack trace (a rejection is an expected, frequent event, and
 * filling one costs microseconds), and its message is built only when read.
 *
 * <p>A breaker hands the calls it rejects in one state the same instance, made by the first
 * rejection of that state: an outage sends the most traffic into an OPEN breaker, and its
 * rejections allocate nothing. The instance cannot be changed: it takes no suppressed exception,
 * no cause and no stack trace. {@link #getRetryAfterNanos()} answers the wait left when it is
 * asked, so an exception kept for a while still tells the truth.
 *
 * <p>Do not retry on this exception: the breaker is telling you the dependency is unhealthy.
 */
public final class CircuitOpenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The breaker that rejected the call. */
    private final String breakerName;
    /** The breaker's state when it rejected the call. */
    private final State state;
    /**
     * Without a clock: nanoseconds until a probe is allowed, or -1 when unknown. With one: the
     * clock's reading at which a probe is allowed.
     */
    private final long retryAfterNanos;
    /** The breaker's clock, when the wait left is read from it; a serialized copy keeps the wait left then. */
    private final transient @Nullable NanoClock clock;

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
        this.clock = null;
    }

    /** An OPEN rejection whose wait left is read from {@code clock}: a probe is allowed at {@code probeAtNanos}. */
    CircuitOpenException(String breakerName, long probeAtNanos, NanoClock clock) {
        super(null, null, false, false);
        this.breakerName = breakerName;
        this.state = State.OPEN;
        this.retryAfterNanos = probeAtNanos;
        this.clock = clock;
    }

    /** The name of the breaker that rejected the call. */
    public String getBreakerName() {
        return breakerName;
    }

    /** The breaker's state when it rejected the call. */
    public State getState() {
        return state;
    }

    /** Time left until a probe is allowed, in nanoseconds (0 once due), or -1 when unknown. */
    public long getRetryAfterNanos() {
        NanoClock reading = clock;
        return reading == null ? retryAfterNanos : Math.max(0L, retryAfterNanos - reading.nanoTime());
    }

    @Override
    public String getMessage() {
        StringBuilder message = new StringBuilder(96)
                .append("Circuit breaker '")
                .append(breakerName)
                .append("' is ")
                .append(state)
                .append(" and rejects calls");
        long waitLeft = getRetryAfterNanos();
        if (waitLeft >= 0) {
            message.append("; a probe is allowed in ")
                    .append(TimeUnit.NANOSECONDS.toMillis(waitLeft))
                    .append(" ms");
        } else if (state == State.FORCED_OPEN) {
            message.append(" until an operator releases it");
        } else {
            message.append("; every probe permit is taken");
        }
        return message.toString();
    }

    /** Serialized as the wait left at the time, since the clock does not travel. */
    private Object writeReplace() {
        return clock == null ? this : new CircuitOpenException(breakerName, state, getRetryAfterNanos());
    }
}
