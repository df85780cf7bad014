package io.breaker.internal;

import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.NanoClock;
import org.jspecify.annotations.Nullable;

/**
 * The parts of a breaker's call path that {@link Integration} reaches, and users do not.
 * {@link CircuitBreaker} is the one subclass: it implements these methods, and a protected member
 * is visible in the package that declares it, so {@link Integration} calls them directly (one
 * call, the breaker's own method) while {@code CircuitBreaker}'s users cannot call them at all.
 */
public abstract class CallPath {

    /** For {@link CircuitBreaker} only. */
    protected CallPath() {}

    /** The clock the breaker reads. */
    protected abstract NanoClock clock();

    /** Whether calls must be timed: slow-call detection is on, or a listener wants durations. */
    protected abstract boolean timed();

    /**
     * The one admission every way of asking goes through: a permit (above zero), or a rejection. A
     * call rejected because the breaker is OPEN and still waiting is answered with the nanoseconds
     * left until a probe, negated: the one clock reading that decided the rejection also dates it.
     * Every other rejection is {@link CircuitBreaker#NO_PERMIT}.
     */
    protected abstract long permitOrWaitLeft();

    /**
     * The rejection of a call that {@link #permitOrWaitLeft()} answered with {@code answer} (not a
     * permit): OPEN with the wait left it was answered with, or the state as it is now.
     */
    protected abstract CircuitOpenException rejection(long answer);

    /**
     * {@link CircuitBreaker#onSuccess(long, long)} given the breaker's clock readings at the call's
     * start and end: the end reading is the one a time-based window files the outcome under. A call
     * past the slow-call threshold is {@code slowOutcome}: SLOW_SUCCESS, or SLOW_CANCELLED.
     */
    protected abstract void onSuccessBetween(long permit, long startNanos, long endNanos, CallOutcome slowOutcome);

    /** {@link CircuitBreaker#onError(long, long, Throwable)} given the call's start and end readings. */
    protected abstract boolean onErrorBetween(long permit, long startNanos, long endNanos, Throwable error);

    /**
     * {@link CircuitBreaker#onFailedResult(long, long, String)} given the call's start and end readings,
     * and the result itself (or null), which the breaker asks for a Retry-After if it opens the breaker.
     */
    protected abstract void onFailedResultBetween(
            long permit, long startNanos, long endNanos, String resultType, @Nullable Object result);
}
