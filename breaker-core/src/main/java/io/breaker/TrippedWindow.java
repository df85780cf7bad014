package io.breaker;

import io.breaker.spi.SharedVerdict;

/**
 * The window of a trip another party decided: a shared breaker that adopts the fleet's trip keeps the
 * counts of the fleet's window as they were when it tripped, so that its transition, and its numbers
 * while OPEN and HALF_OPEN, are those of the window that tripped, as they are in memory. Nothing is
 * recorded into it: OPEN and HALF_OPEN record nothing, and a CLOSED phase always gets a new window.
 */
final class TrippedWindow extends SlidingWindow {

    private final int[] counts;

    TrippedWindow(SharedVerdict.Counts tripped, BreakerConfig config) {
        super(config.getMinimumNumberOfCalls(), config.getFailureRateThreshold(), config.getSlowCallRateThreshold());
        this.counts = new int[] {tripped.calls(), tripped.failedCalls(), tripped.slowCalls()};
    }

    @Override
    boolean record(int outcome, long nowNanos) {
        throw new IllegalStateException("a tripped window records nothing");
    }

    @Override
    int evaluate(long nowNanos) {
        return verdict(counts[0], counts[1], counts[2]);
    }

    @Override
    int[] counts(long nowNanos) {
        return counts.clone();
    }
}
