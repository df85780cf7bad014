package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.NanoClock;
import io.breaker.internal.Integration;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Everything a call to one protected method needs, resolved once: the breaker, the fallback, and the
 * handling of its return type (one subclass per kind). The call path reads only final fields.
 */
abstract class ProtectedCall {

    /** {@code start} value when the breaker needs no durations: no clock is read. */
    static final long NOT_TIMED = Long.MIN_VALUE;

    final @Nullable CircuitBreaker breaker;
    final @Nullable NanoClock clock;
    /** The fallback, or {@code null}. */
    final @Nullable Fallback fallback;
    /** The slow-call threshold in nanoseconds, or {@code Long.MAX_VALUE} when slow-call detection is off. */
    final long slowNanos;
    /** The overload a rejection goes to, or {@code null}: then the caller gets the rejection. */
    final @Nullable Method rejectionFallback;

    private final boolean rejectionFallbackTakesException;

    /** @param breaker {@code null} only for a call that does not go through a breaker */
    ProtectedCall(@Nullable CircuitBreaker breaker, @Nullable Fallback fallback) {
        this.breaker = breaker;
        this.clock = breaker == null ? null : Integration.clock(breaker);
        this.slowNanos = breaker == null || !breaker.getConfig().isSlowCallDetectionEnabled()
                ? Long.MAX_VALUE
                : breaker.getConfig().getSlowCallDurationThreshold().toNanos();
        this.fallback = fallback;
        this.rejectionFallback = fallback == null ? null : fallback.selectFor(CircuitOpenException.class);
        this.rejectionFallbackTakesException =
                rejectionFallback != null && !fallback.isWithoutException(rejectionFallback);
    }

    /** Runs the invocation through the breaker. */
    abstract @Nullable Object invoke(MethodInvocation invocation) throws Throwable;

    final long start() {
        return Integration.isTimingCalls(breaker) ? clock.nanoTime() : NOT_TIMED;
    }

    /** The clock's reading at the end of a call, or {@code NOT_TIMED} when its start was not read either. */
    final long end(long start) {
        return start == NOT_TIMED ? NOT_TIMED : clock.nanoTime();
    }

    /**
     * Reports a success that started at {@code start} and ended at {@code end} (both {@code NOT_TIMED},
     * or readings of the breaker's clock): a timed call gives the breaker its end reading, so a
     * time-based window files it there instead of reading the clock once more.
     */
    final void succeeded(long permit, long start, long end) {
        if (start == NOT_TIMED) {
            breaker.onSuccess(permit, 0L);
        } else {
            Integration.onSuccess(breaker, permit, start, end);
        }
    }

    /** Reports a success that ends now; see {@link #succeeded(long, long, long)}. */
    final void succeeded(long permit, long start) {
        succeeded(permit, start, end(start));
    }

    /** Reports an error that ends now, as {@link #succeeded(long, long)} a success; returns whether it counted as a failure. */
    final boolean failed(long permit, long start, Throwable error) {
        return start == NOT_TIMED
                ? breaker.onError(permit, 0L, error)
                : Integration.onError(breaker, permit, start, clock.nanoTime(), error);
    }

    /**
     * Asks the breaker for a permit: above zero a permit, otherwise a rejection to hand to
     * {@link #rejected} (see {@link Integration#tryAcquirePermit}: an OPEN rejection carries the wait
     * left, so building the exception reads no clock).
     */
    final long acquire() {
        return Integration.tryAcquirePermit(breaker);
    }

    /**
     * The fallback's answer to a rejection ({@code answer}, from {@link #acquire}); throws the
     * rejection when there is no fallback for it.
     */
    final @Nullable Object rejected(@Nullable Object target, @Nullable Object[] arguments, long answer)
            throws Throwable {
        if (rejectionFallback == null) {
            throw Integration.rejection(breaker, answer);
        }
        return rejectionFallbackTakesException
                ? fallback.invoke(target, arguments, Integration.rejection(breaker, answer))
                : fallback.invokeWithoutException(target, arguments);
    }

    /**
     * Whether a fallback should answer {@code error}: the breaker counted it as a failure (as its
     * {@code onError} answered: an ignored error is never hidden) and some overload accepts it.
     */
    final boolean recovers(Throwable error, boolean countedAsFailure) {
        return countedAsFailure && fallback != null && fallback.serves(error);
    }

    /** The fallback's answer to a failed call, or {@code error} rethrown unchanged. */
    final @Nullable Object recover(
            @Nullable Object target, @Nullable Object[] arguments, Throwable error, boolean countedAsFailure)
            throws Throwable {
        if (!recovers(error, countedAsFailure)) {
            throw error;
        }
        return fallback.invoke(target, arguments, error);
    }

    /**
     * The end of one asynchronous call, reported exactly once whichever signal comes first, with the
     * permit its subscription (or call) took. Extends AtomicBoolean to save an allocation.
     */
    static final class Outcome extends AtomicBoolean {

        private static final long serialVersionUID = 1L;

        private final transient ProtectedCall call;
        private final long permit;
        private final long start;
        /** Whether a Flux emitted an element; written on the emitting thread, read by a cancel. */
        private volatile boolean emitted;
        /** Whether the error this outcome reported counted as a failure. */
        private volatile boolean failed;

        Outcome(ProtectedCall call, long permit, long start) {
            this.call = call;
            this.permit = permit;
            this.start = start;
        }

        /** A value (or an empty completion) arrived: success. */
        void success() {
            if (compareAndSet(false, true)) {
                call.succeeded(permit, start);
            }
        }

        /** A Flux emitted an element: from now on, a cancel is a success. */
        void element() {
            if (!emitted) {
                emitted = true;
            }
        }

        void error(Throwable error) {
            if (compareAndSet(false, true)) {
                failed = call.failed(permit, start, error);
            }
        }

        /** Whether a fallback should answer {@code error}, reported before through {@link #error}. */
        boolean recovers(Throwable error) {
            return call.recovers(error, failed);
        }

        /**
         * Cancelled (the caller read enough, gave up, or its {@code timeout()} fired): a success once
         * an element arrived; before that a slow call once it ran past the slow-call threshold (a hung
         * dependency behind the caller's own timeout must still count); otherwise neither way, and a
         * half-open permit goes back.
         */
        void cancel() {
            if (!compareAndSet(false, true)) {
                return;
            }
            long end = call.end(start);
            if (emitted || (start != NOT_TIMED && end - start >= call.slowNanos)) {
                call.succeeded(permit, start, end);
            } else {
                call.breaker.releasePermit(permit);
            }
        }
    }
}
