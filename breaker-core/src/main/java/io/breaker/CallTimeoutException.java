package io.breaker;

import java.time.Duration;
import java.util.Objects;

/**
 * A protected call ran past its breaker's call timeout ({@link BreakerConfig#CALL_TIMEOUT}) and was
 * given up: the caller stopped waiting and the call's thread was interrupted (see {@link CallTimeout}).
 *
 * <p>It counts as a failure whatever {@code recordExceptions} lists; only {@code ignoreExceptions}
 * naming it (or a superclass) makes it count neither way. A fallback that serves it answers it. Like
 * {@link CircuitOpenException}, it carries no stack trace (it is thrown on the waiting thread, whose
 * stack says nothing about the call) and builds its message only when read.
 */
public final class CallTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String breakerName;
    private final Duration timeout;

    /**
     * @param breakerName the breaker whose call timed out
     * @param timeout     the call timeout that ran out
     */
    public CallTimeoutException(String breakerName, Duration timeout) {
        super(null, null, false, false);
        this.breakerName = Objects.requireNonNull(breakerName, "breakerName");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** The name of the breaker whose call timed out. */
    public String getBreakerName() {
        return breakerName;
    }

    /** The call timeout that ran out. */
    public Duration getTimeout() {
        return timeout;
    }

    @Override
    public String getMessage() {
        return "A call through circuit breaker '" + breakerName + "' did not end within its call timeout of "
                + timeout.toMillis() + " ms; it was cancelled";
    }
}
