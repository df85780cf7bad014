package io.breaker;

import org.jspecify.annotations.Nullable;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/*
 * Execution: the one-call API (CircuitBreaker.execute, call and run). Each takes a permit, runs the
 * work, and reports its outcome with that permit, through the same methods as the two-step API.
 *
 * Invariants:
 * - A rejected call takes no permit and its work does not run: acquirePermit throws first.
 * - Every permit taken here is given back exactly once, with the outcome of the work: a success, or
 *   whatever it threw (recorded as a failure, or ignored and the permit released, as the config
 *   says). What the work throws is then rethrown unchanged.
 * - The clock is read at the start and at the end only when calls must be timed (slow-call
 *   detection, or a listener that wants durations); the outcome is then filed under the end
 *   reading. Untimed, the start is Long.MIN_VALUE, the duration reported is 0, and the clock is read
 *   once at the end only for a time-based window.
 * - Faults (Faults.java) are injected inside the try, after the clock's start reading: an injected
 *   failure is recorded as the work's own, and injected latency is part of the call's duration.
 * - This is the call path: the public methods on CircuitBreaker are one-line delegations to these
 *   static methods, which the JIT inlines into the caller with the breaker's own methods (no
 *   virtual call, no allocation; checked with -XX:+PrintInlining).
 */

/** The work of {@link CircuitBreaker#execute}, {@code call} and {@code run} (see the notes above). */
final class Execution {

    private Execution() {}

    /** What {@link CircuitBreaker#execute(Supplier)} does, as its Javadoc says. */
    static <T extends @Nullable Object> T execute(CircuitBreaker breaker, Supplier<T> supplier) {
        long permit = breaker.acquirePermit();
        long start = startTiming(breaker);
        T result;
        try {
            injectFaults(breaker);
            result = supplier.get();
        } catch (Throwable error) {
            endWithError(breaker, permit, start, error);
            throw error;
        }
        endWithSuccess(breaker, permit, start);
        return result;
    }

    /** What {@link CircuitBreaker#call(Callable)} does, as its Javadoc says. */
    static <T extends @Nullable Object> T call(CircuitBreaker breaker, Callable<T> callable) throws Exception {
        long permit = breaker.acquirePermit();
        long start = startTiming(breaker);
        T result;
        try {
            injectFaults(breaker);
            result = callable.call();
        } catch (Throwable error) {
            endWithError(breaker, permit, start, error);
            throw error;
        }
        endWithSuccess(breaker, permit, start);
        return result;
    }

    /** What {@link CircuitBreaker#run(Runnable)} does, as its Javadoc says. */
    static void run(CircuitBreaker breaker, Runnable runnable) {
        long permit = breaker.acquirePermit();
        long start = startTiming(breaker);
        try {
            injectFaults(breaker);
            runnable.run();
        } catch (Throwable error) {
            endWithError(breaker, permit, start, error);
            throw error;
        }
        endWithSuccess(breaker, permit, start);
    }

    /** The breaker's faults, if it has any, after the permit and before the work (see Faults). */
    private static void injectFaults(CircuitBreaker breaker) {
        Faults faults = breaker.faults; // a plain read: null unless faults are set
        if (faults != null) {
            faults.beforeCall();
        }
    }

    private static long startTiming(CircuitBreaker breaker) {
        return breaker.timed() ? breaker.clock().nanoTime() : Long.MIN_VALUE;
    }

    private static void endWithSuccess(CircuitBreaker breaker, long permit, long start) {
        if (start == Long.MIN_VALUE) {
            breaker.record(
                    CallOutcome.SUCCESS,
                    permit,
                    0L,
                    breaker.windowNeedsClock ? breaker.clock().nanoTime() : 0L,
                    null);
        } else {
            breaker.onSuccessBetween(permit, start, breaker.clock().nanoTime(), CallOutcome.SLOW_SUCCESS);
        }
    }

    private static void endWithError(CircuitBreaker breaker, long permit, long start, Throwable error) {
        if (start == Long.MIN_VALUE) {
            breaker.onError(permit, 0L, error);
        } else {
            breaker.onErrorBetween(permit, start, breaker.clock().nanoTime(), error);
        }
    }
}
