package io.breaker;

import io.breaker.spi.SharedVerdict;

/**
 * The window that tripped a breaker, as it was at that moment: the window of an OPEN or HALF_OPEN
 * phase. Its numbers are what the breaker reports while OPEN and HALF_OPEN, and in the transitions
 * that follow the trip. A live time window would keep aging meanwhile (after one window length in
 * OPEN it would show no calls at all); a shared breaker that adopts the fleet's trip holds the fleet's
 * counts, which its own window never saw. Nothing is recorded into it: OPEN and HALF_OPEN record
 * nothing, and a CLOSED phase always gets a new window.
 */
final class TrippedWindow extends SlidingWindow {

    private final int calls;
    private final int failed;
    private final int slow;

    private TrippedWindow(int calls, int failed, int slow, BreakerConfig config) {
        super(config);
        this.calls = calls;
        this.failed = failed;
        this.slow = slow;
    }

    /** {@code window} as it is at {@code nowNanos} (itself if it is already a tripped one). */
    static SlidingWindow of(SlidingWindow window, long nowNanos, BreakerConfig config) {
        if (window instanceof TrippedWindow) {
            return window;
        }
        int[] counts = window.counts(nowNanos);
        return new TrippedWindow(counts[0], counts[1], counts[2], config);
    }

    /** The fleet's window when it tripped, as the store reported it. */
    static SlidingWindow of(SharedVerdict.Counts fleet, BreakerConfig config) {
        return new TrippedWindow(fleet.calls(), fleet.failedCalls(), fleet.slowCalls(), config);
    }

    @Override
    boolean record(int outcome, long nowNanos) {
        throw new IllegalStateException("a tripped window records nothing");
    }

    @Override
    int evaluate(long nowNanos) {
        return verdict(calls, failed, slow);
    }

    @Override
    int[] counts(long nowNanos) {
        return new int[] {calls, failed, slow};
    }
}
