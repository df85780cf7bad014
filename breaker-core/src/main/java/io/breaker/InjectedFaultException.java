package io.breaker;

import java.util.Objects;

/**
 * The failure a breaker's fault injection throws into a protected call by default (see
 * {@link BreakerConfig#FAULT_FAILURE_RATE}): the method did not run, nothing reached the dependency.
 * It is recorded, classified and answered by a fallback as the method's own exception would be. Like
 * {@link CallTimeoutException}, it carries no stack trace and builds its message only when read.
 */
public final class InjectedFaultException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String breakerName;

    /** @param breakerName the breaker whose fault injection failed the call */
    public InjectedFaultException(String breakerName) {
        super(null, null, false, false);
        this.breakerName = Objects.requireNonNull(breakerName, "breakerName");
    }

    /** The name of the breaker whose fault injection failed the call. */
    public String getBreakerName() {
        return breakerName;
    }

    @Override
    public String getMessage() {
        return "Failure injected by circuit breaker '" + breakerName
                + "' (fault-failure-rate): the call did not run and the dependency was not called";
    }
}
