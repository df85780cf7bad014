package io.breaker;

import io.breaker.spi.OutcomeBits;

/**
 * Counts the outcomes of recent calls without taking a lock. Package-private: not part of the API.
 *
 * <p>An outcome is a small bit set ({@link OutcomeBits}): {@code CALL} for every recorded call, plus
 * {@code FAILED} and {@code SLOW} when they apply. Implementations keep aggregate counts that are
 * updated with atomic additions, so concurrent records are never lost; a reader may briefly see one record's change in
 * part (a count that includes an outcome whose removal is not yet applied), which only ever delays
 * or advances an evaluation by one call.
 */
abstract class SlidingWindow {

    /** Trip verdict: the rates are below their thresholds (or too few calls). */
    static final int BELOW_THRESHOLDS = 0;
    /** Trip verdict: the failure rate reached its threshold. */
    static final int FAILURE_RATE_REACHED = 1;
    /** Trip verdict: the slow-call rate reached its threshold. */
    static final int SLOW_CALL_RATE_REACHED = 2;

    /**
     * The settings the window was made for, which the breaker keeps anyway: the minimum number of
     * calls and the rate thresholds are read from them when a verdict is due (after a failed or slow
     * call), so a count window carries no copies of its own (12 bytes a breaker).
     */
    private final BreakerConfig rule;

    /** An empty window as {@code config} describes it; only a time window reads the clock (its origin). */
    static SlidingWindow of(BreakerConfig config, NanoClock clock) {
        if (config.getSlidingWindowType() == SlidingWindowType.COUNT_BASED) {
            return new CountWindow(config);
        }
        return new TimeWindow(config, clock.nanoTime());
    }

    /** @param rule the minimum number of calls and the rate thresholds (failure, slow call) it evaluates against */
    protected SlidingWindow(BreakerConfig rule) {
        this.rule = rule;
    }

    /**
     * Records one outcome.
     *
     * @param outcome  {@link OutcomeBits#CALL}, optionally with {@link OutcomeBits#FAILED} and
     *                 {@link OutcomeBits#SLOW}
     * @param nowNanos the clock's reading at the end of the call (ignored by count-based windows)
     * @return {@code true} when this record may have brought a rate to its threshold, so the rates
     *         must be evaluated again: a failed or slow call, or the call that brings the window to
     *         its minimum number of calls. (A time window whose good calls expire sees its failure
     *         rate rise without a record; the next failed or slow call evaluates it.)
     */
    abstract boolean record(int outcome, long nowNanos);

    /** Evaluates the rates against the thresholds: one of the {@code *_REACHED} verdicts or {@link #BELOW_THRESHOLDS}. */
    abstract int evaluate(long nowNanos);

    /** Calls, failed calls and slow calls currently in the window, as {@code [calls, failed, slow]}. */
    abstract int[] counts(long nowNanos);

    /** The verdict for these counts; negative counts (a record seen in part) read as zero. */
    protected final int verdict(long calls, long failed, long slow) {
        if (calls < rule.getMinimumNumberOfCalls() || calls <= 0) {
            return BELOW_THRESHOLDS;
        }
        if (failed > 0 && failed * 100f >= rule.getFailureRateThreshold() * calls) {
            return FAILURE_RATE_REACHED;
        }
        if (slow > 0 && slow * 100f >= rule.getSlowCallRateThreshold() * calls) {
            return SLOW_CALL_RATE_REACHED;
        }
        return BELOW_THRESHOLDS;
    }

    /** Percentage of {@code part} in {@code calls}, or -1 below the minimum number of calls. */
    final float rate(int part, int calls) {
        if (calls < rule.getMinimumNumberOfCalls() || calls <= 0) {
            return -1f;
        }
        return Math.max(0, part) * 100f / calls;
    }
}
