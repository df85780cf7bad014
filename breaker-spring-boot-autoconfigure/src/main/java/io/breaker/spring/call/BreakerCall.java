package io.breaker.spring.call;

import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.Faults;
import io.breaker.NanoClock;
import io.breaker.internal.Integration;
import io.breaker.spring.ResultPredicate;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One breaker's side of a protected call, resolved once per method or per Spring Cloud breaker: it
 * takes the permit, times the call with the breaker's clock, reports the outcome, and decides whether
 * a fallback answers. The call path reads only final fields and allocates nothing.
 *
 * <p>The rules, for every integration: a rejected call does not run and goes to the fallback as a
 * {@link CircuitOpenException}; an error counts as the breaker's {@code onError} says, and only one
 * it counted as a failure goes to the fallback (an ignored one reaches the caller unchanged);
 * asynchronous outcomes are reported exactly once ({@link Outcome}). A call built with a
 * {@link ResultPredicate} ({@code record-result}) reports a result the predicate accepts as a failure
 * and still hands it to the caller; a fallback never answers it. A call built without one never looks
 * at results.
 */
public abstract class BreakerCall {

    /** {@code start} value when the breaker needs no durations: no clock is read. */
    public static final long NOT_TIMED = Long.MIN_VALUE;

    /** The breaker; {@code null} only for a call that does not go through one. */
    protected final @Nullable CircuitBreaker breaker;

    protected final @Nullable NanoClock clock;

    /** The slow-call threshold in nanoseconds, or {@code Long.MAX_VALUE} when slow-call detection is off. */
    protected final long slowNanos;

    /** Which results count as failures, or {@code null}: then results are never looked at. */
    protected final @Nullable ResultPredicate recordResult;

    /** @param breaker {@code null} only for a call that does not go through a breaker */
    protected BreakerCall(@Nullable CircuitBreaker breaker) {
        this(breaker, null);
    }

    /**
     * @param breaker      {@code null} only for a call that does not go through a breaker
     * @param recordResult which results count as failures; {@code null} when none do
     */
    protected BreakerCall(@Nullable CircuitBreaker breaker, @Nullable ResultPredicate recordResult) {
        this.breaker = breaker;
        this.recordResult = recordResult;
        this.clock = breaker == null ? null : Integration.clock(breaker);
        this.slowNanos = breaker == null || !breaker.getConfig().isSlowCallDetectionEnabled()
                ? Long.MAX_VALUE
                : breaker.getConfig().getSlowCallDurationThreshold().toNanos();
    }

    /** Whether a fallback exists at all; without one, errors and rejections reach the caller. */
    protected abstract boolean hasFallback();

    /** Whether the fallback accepts {@code error} (a failure, or a {@link CircuitOpenException}). */
    protected abstract boolean serves(Throwable error);

    /** The breaker this call goes through. */
    public final @Nullable CircuitBreaker breaker() {
        return breaker;
    }

    /**
     * Asks the breaker for a permit: above zero a permit, otherwise a rejection to hand to
     * {@link #rejection} (see {@link Integration#tryAcquirePermit}: an OPEN rejection carries the wait
     * left, so building the exception reads no clock).
     */
    public final long acquire() {
        return Integration.tryAcquirePermit(breaker);
    }

    /** The exception for a rejection {@code answer} from {@link #acquire}. */
    public final CircuitOpenException rejection(long answer) {
        return Integration.rejection(breaker, answer);
    }

    /** The start of a call: a reading of the breaker's clock, or {@link #NOT_TIMED}. */
    public final long start() {
        return Integration.isTimingCalls(breaker) ? clock.nanoTime() : NOT_TIMED;
    }

    /**
     * Injects the breaker's faults into a blocking call, if it has any ({@link Faults#beforeCall}: it
     * may wait, and may throw as the method would): after the permit and the start reading, right
     * before the method runs. Without faults, one plain read and a branch.
     */
    public final void injectFaults() {
        Faults faults = Integration.faults(breaker);
        if (faults != null) {
            faults.beforeCall();
        }
    }

    /**
     * The breaker's faults, or {@code null} when it has none: a call that does not block reads them
     * once, after the permit, and delays or fails itself without blocking ({@link FaultedStages},
     * {@link ReactorCalls}).
     */
    public final @Nullable Faults faults() {
        return Integration.faults(breaker);
    }

    /** The clock's reading at the end of a call, or {@code NOT_TIMED} when its start was not read either. */
    public final long end(long start) {
        return start == NOT_TIMED ? NOT_TIMED : clock.nanoTime();
    }

    /**
     * Reports a success that started at {@code start} and ended at {@code end} (both {@code NOT_TIMED},
     * or readings of the breaker's clock): a timed call gives the breaker its end reading, so a
     * time-based window files it there instead of reading the clock once more.
     */
    public final void succeeded(long permit, long start, long end) {
        if (start == NOT_TIMED) {
            breaker.onSuccess(permit, 0L);
        } else {
            Integration.onSuccess(breaker, permit, start, end);
        }
    }

    /** Reports a success that ends now; see {@link #succeeded(long, long, long)}. */
    public final void succeeded(long permit, long start) {
        succeeded(permit, start, end(start));
    }

    /** Reports an error that ends now, as {@link #succeeded(long, long)} a success; returns whether it counted as a failure. */
    public final boolean failed(long permit, long start, Throwable error) {
        return start == NOT_TIMED
                ? breaker.onError(permit, 0L, error)
                : Integration.onError(breaker, permit, start, clock.nanoTime(), error);
    }

    /**
     * Whether {@code result} counts as a failure: this call checks results and its predicate accepts
     * it. {@code null} is never one. What the predicate throws reaches the caller of this method.
     */
    public final boolean isFailedResult(@Nullable Object result) {
        ResultPredicate predicate = recordResult;
        return predicate != null && result != null && predicate.isFailure(result);
    }

    /** Reports a call that returned {@code result}, which counts as a failure, ending now; see {@link #succeeded(long, long, long)}. */
    public final void failedResult(long permit, long start, Object result) {
        // The result goes along: if it opens the breaker, its Retry-After may make the wait longer.
        long end = clock.nanoTime();
        Integration.onFailedResult(
                breaker,
                permit,
                start == NOT_TIMED ? end : start,
                end,
                result.getClass().getName(),
                result);
    }

    /** Gives a permit back for a call that counts neither way (cancelled, or never run). */
    public final void released(long permit) {
        breaker.releasePermit(permit);
    }

    /**
     * Whether a fallback should answer {@code error}: the breaker counted it as a failure (as its
     * {@code onError} answered: an ignored error is never hidden) and the fallback accepts it.
     */
    public final boolean recovers(Throwable error, boolean countedAsFailure) {
        return countedAsFailure && serves(error);
    }

    /**
     * The end of one asynchronous call, reported exactly once whichever signal comes first, with the
     * permit its subscription (or call) took. Extends AtomicBoolean to save an allocation.
     */
    public static final class Outcome extends AtomicBoolean {

        private static final long serialVersionUID = 1L;

        private final transient BreakerCall call;
        private final long permit;
        private final long start;
        /** Whether a Flux emitted an element; written on the emitting thread, read by a cancel. */
        private volatile boolean emitted;
        /** Whether the error this outcome reported counted as a failure. */
        private volatile boolean failed;

        public Outcome(BreakerCall call, long permit, long start) {
            this.call = call;
            this.permit = permit;
            this.start = start;
        }

        /** A value (or an empty completion) arrived: success. */
        public void success() {
            if (compareAndSet(false, true)) {
                call.succeeded(permit, start);
            }
        }

        /**
         * A value (or an empty completion, {@code null}) arrived: a failure if the call's
         * {@code record-result} counts it as one, else a success. The value is checked before the
         * outcome is taken, so a predicate that throws leaves the outcome to the error it signals.
         */
        public void result(@Nullable Object value) {
            boolean failure = call.isFailedResult(value);
            if (compareAndSet(false, true)) {
                if (failure) {
                    call.failedResult(permit, start, value);
                } else {
                    call.succeeded(permit, start);
                }
            }
        }

        /**
         * A Flux emitted an element that its call's {@code record-result} checks: the first one that
         * counts as a failure is the call's outcome; the elements still reach the subscriber.
         */
        public void checkedElement(Object value) {
            element();
            if (call.isFailedResult(value) && compareAndSet(false, true)) {
                call.failedResult(permit, start, value);
            }
        }

        /** A Flux emitted an element: from now on, a cancel is a success. */
        public void element() {
            if (!emitted) {
                emitted = true;
            }
        }

        public void error(Throwable error) {
            if (compareAndSet(false, true)) {
                failed = call.failed(permit, start, error);
            }
        }

        /** Whether a fallback should answer {@code error}, reported before through {@link #error}. */
        public boolean recovers(Throwable error) {
            return call.recovers(error, failed);
        }

        /**
         * Cancelled (the caller read enough, gave up, or its {@code timeout()} fired): a success once
         * an element arrived; before that a slow call once it ran past the slow-call threshold (a hung
         * dependency behind the caller's own timeout must still count), recorded as
         * {@link io.breaker.CallOutcome#SLOW_CANCELLED}, not as a success; otherwise neither way, and a
         * half-open permit goes back.
         */
        public void cancel() {
            if (!compareAndSet(false, true)) {
                return;
            }
            long end = call.end(start);
            if (emitted) {
                call.succeeded(permit, start, end);
            } else if (start != NOT_TIMED && end - start >= call.slowNanos) {
                Integration.onCancelled(call.breaker, permit, start, end);
            } else {
                call.released(permit);
            }
        }
    }
}
