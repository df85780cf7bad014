package io.breaker.internal;

import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.Faults;
import io.breaker.NanoClock;
import org.jspecify.annotations.Nullable;

/**
 * What an integration that drives a breaker through the two-step API (the Spring starter's aspect,
 * for example) needs from it, and its users do not: the breaker's clock, whether calls are timed,
 * and two ways to spare a clock reading. Each method is one call of the breaker's own method
 * (see {@link CallPath}): no allocation, no look-up. The widening cast to {@code CallPath} is how
 * this package may call a protected method of its own type; javac emits no check for it.
 *
 * <pre>{@code
 * long permit = Integration.tryAcquirePermit(breaker);            // above zero: a permit
 * if (permit <= CircuitBreaker.NO_PERMIT) {
 *     throw Integration.rejection(breaker, permit);                // state and wait left, no clock read
 * }
 * NanoClock clock = Integration.clock(breaker);                   // readings must come from the breaker's clock
 * long start = clock.nanoTime();
 * T result = call();
 * Integration.onSuccess(breaker, permit, start, clock.nanoTime()); // duration = end - start
 * }</pre>
 */
public final class Integration {

    private Integration() {}

    /** The clock the breaker reads; an integration times calls with it, so tests that move it move both. */
    public static NanoClock clock(CircuitBreaker breaker) {
        return ((CallPath) breaker).clock();
    }

    /**
     * The faults the breaker injects into its calls, or {@code null} (one plain read; see
     * {@link Faults}): an integration calls this after the permit and its start reading, and injects
     * them before the method runs, so that an injected failure is recorded as the method's own and
     * injected latency is part of the call's duration.
     */
    public static @Nullable Faults faults(CircuitBreaker breaker) {
        return Faults.injectedInto(breaker);
    }

    /**
     * Whether calls must be timed: slow-call detection is on, or a listener wants durations. When
     * {@code false} an integration may skip the clock and report a duration of 0.
     */
    public static boolean isTimingCalls(CircuitBreaker breaker) {
        return ((CallPath) breaker).timed();
    }

    /**
     * Asks for a permit as {@link CircuitBreaker#tryAcquirePermit()} does, with one difference: a call
     * rejected because the breaker is OPEN and still waiting is answered with the nanoseconds left
     * until a probe, negated (always below zero), instead of {@link CircuitBreaker#NO_PERMIT}; every
     * other rejection is {@code NO_PERMIT}. A rejected caller that needs the exception then gets it
     * from {@link #rejection(CircuitBreaker, long)} without a second clock reading.
     *
     * @return a permit (above zero; give it back exactly once, as any permit), or a rejection (zero or below)
     */
    public static long tryAcquirePermit(CircuitBreaker breaker) {
        return ((CallPath) breaker).permitOrWaitLeft();
    }

    /**
     * The exception for a call that {@link #tryAcquirePermit(CircuitBreaker)} rejected with
     * {@code answer} (zero or below), as {@link CircuitBreaker#acquirePermit()} would throw it: OPEN
     * with the wait left that decided it, or, for {@link CircuitBreaker#NO_PERMIT} (also from
     * {@link CircuitBreaker#tryAcquirePermit()}), the state and wait left as they are now. An
     * integration builds it only when it needs it.
     */
    public static CircuitOpenException rejection(CircuitBreaker breaker, long answer) {
        return ((CallPath) breaker).rejection(answer);
    }

    /**
     * Reports a success as {@link CircuitBreaker#onSuccess(long, long)} does, given the readings of
     * {@link #clock} taken when the call started and when it ended (the duration is their
     * difference). An integration that times its calls anyway saves the breaker a clock reading: a
     * time-based window files the outcome under {@code endNanos} instead of reading the clock again.
     * Both readings must come from {@link #clock}{@code (breaker)}.
     */
    public static void onSuccess(CircuitBreaker breaker, long permit, long startNanos, long endNanos) {
        ((CallPath) breaker).onSuccessBetween(permit, startNanos, endNanos, CallOutcome.SLOW_SUCCESS);
    }

    /**
     * Reports a call its caller cancelled before any result, given its start and end readings of
     * {@link #clock}: past the slow-call threshold it counts as {@link CallOutcome#SLOW_CANCELLED} (slow,
     * not failed); within it as a success, as {@link #onSuccess} does.
     */
    public static void onCancelled(CircuitBreaker breaker, long permit, long startNanos, long endNanos) {
        ((CallPath) breaker).onSuccessBetween(permit, startNanos, endNanos, CallOutcome.SLOW_CANCELLED);
    }

    /**
     * Reports an error as {@link CircuitBreaker#onError(long, long, Throwable)} does (and returns what
     * it returns), given the call's start and end readings of {@link #clock}; see {@link #onSuccess}.
     */
    public static boolean onError(
            CircuitBreaker breaker, long permit, long startNanos, long endNanos, Throwable error) {
        return ((CallPath) breaker).onErrorBetween(permit, startNanos, endNanos, error);
    }

    /**
     * Reports a result counted as a failure as {@link CircuitBreaker#onFailedResult(long, long, String)}
     * does, given the call's start and end readings of {@link #clock}; see {@link #onSuccess}.
     */
    public static void onFailedResult(
            CircuitBreaker breaker, long permit, long startNanos, long endNanos, String resultType) {
        ((CallPath) breaker).onFailedResultBetween(permit, startNanos, endNanos, resultType, null);
    }

    /**
     * Same, with the result itself: if this failure opens the breaker, its Retry-After (read by the
     * config's {@link io.breaker.RetryAfterResolver}, or from a {@link io.breaker.RetryAfterAware}
     * result) may make the wait longer.
     */
    public static void onFailedResult(
            CircuitBreaker breaker, long permit, long startNanos, long endNanos, String resultType, Object result) {
        ((CallPath) breaker).onFailedResultBetween(permit, startNanos, endNanos, resultType, result);
    }
}
