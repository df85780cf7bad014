package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.SlidingWindowType;
import org.jspecify.annotations.Nullable;

/**
 * The fleet's shared window, kept as counters in the breaker's item and raised with DynamoDB's atomic
 * {@code ADD}: two blocks, the current one and the one before it. A block holds
 * {@code slidingWindowSize} calls (COUNT_BASED) or {@code slidingWindowSize} seconds of the writers'
 * clocks (TIME_BASED). The window's counts are the current block plus the part of the previous one
 * the window still covers, weighted by how much of it that is (the sliding-window-counter estimate):
 * exact while the fleet has seen at most one block of calls since the window began, an estimate
 * afterwards (the outcomes inside a block are not ordered). A batch of successes is added whole, so a
 * COUNT_BASED block may hold more calls than the window's size: each block then counts for the calls
 * of the window it covers, at its own rates, never for more. One counter per block keeps every report
 * one {@code UpdateItem}, whatever the window's size; a ring of outcomes like the Redis store's would
 * need a read-modify-write per report.
 *
 * @param epoch          the item version at which the window began: outcomes reported against another
 *                       epoch belong to a window that is gone and are dropped
 * @param block          which block is the current one (COUNT_BASED: a sequence number; TIME_BASED:
 *                       the writer's wall clock divided by the block's length)
 * @param calls          calls of the current block, {@code failed} and {@code slow} of them
 * @param previousCalls  calls of the previous block, {@code previousFailed} and {@code previousSlow} of them
 * <p>COUNT_BASED blocks also keep an order: a block's calls that are older than its first failed or slow
 * call ({@code pre}, successes all) come before the rest, which hold its failed and slow calls. The window
 * takes a block's newest calls first, so a block's failures are never spread over older successes
 * added to it in bulk.
 *
 * @param failAt         when (writer's clock, ms) the current block's first failed or slow call arrived,
 *                       0 while it has none: successes counted before it are older than its failures
 * @param pre            successes of the current block older than its first failed or slow call
 * @param previousPre    the same of the previous block
 * @param previousFailAt the previous block's {@code failAt} (0: it has no failed or slow call)
 */
record WindowCounts(
        long epoch,
        long block,
        long calls,
        long failed,
        long slow,
        long previousCalls,
        long previousFailed,
        long previousSlow,
        long failAt,
        long pre,
        long previousPre,
        long previousFailAt) {

    /** Counts of a current block without a failed or slow call, and without an order. */
    WindowCounts(
            long epoch,
            long block,
            long calls,
            long failed,
            long slow,
            long previousCalls,
            long previousFailed,
            long previousSlow) {
        this(epoch, block, calls, failed, slow, previousCalls, previousFailed, previousSlow, 0L, 0L, 0L, 0L);
    }

    /**
     * Whether a batch of successes older than the current block's failures (see {@link #olderThanFailures})
     * is also older than the previous block's: then it comes before all of that block's calls that
     * hold failures, among its older successes ({@link #previousPre}).
     */
    boolean olderThanPreviousFailures(long sinceMillis) {
        return previousFailAt == 0 || sinceMillis < previousFailAt;
    }

    /**
     * Whether a batch of successes whose first one was counted at {@code sinceMillis} is older than the
     * current block's failures (COUNT_BASED): an in-memory window would push those successes out
     * before the failures, so they are the previous block's calls, not the current one's.
     */
    boolean olderThanFailures(BreakerConfig config, long sinceMillis) {
        return config.getSlidingWindowType() == SlidingWindowType.COUNT_BASED && failAt != 0 && sinceMillis < failAt;
    }

    /** The block a report at {@code nowMillis} goes to. */
    long targetBlock(BreakerConfig config, long nowMillis) {
        if (config.getSlidingWindowType() == SlidingWindowType.COUNT_BASED) {
            return calls >= config.getSlidingWindowSize() ? block + 1 : block;
        }
        return Math.floorDiv(nowMillis, blockMillis(config));
    }

    /**
     * The trip verdict, the same rule as the in-memory window: enough calls, and the failure rate or
     * else the slow-call rate at or above its threshold. Returns the cause's name and the counts
     * ("calls,failed,slow"), or {@code null} below the thresholds.
     */
    @Nullable
    String[] verdict(BreakerConfig config, long nowMillis) {
        double c;
        double f;
        double s;
        if (config.getSlidingWindowType() == SlidingWindowType.COUNT_BASED) {
            // A batch of successes is added whole, so either block may hold more calls than the window's size:
            // each block counts for the newest calls of the window it covers, at the rates of its part after
            // its first failure, then its older successes.
            int size = config.getSlidingWindowSize();
            if (calls >= size) {
                c = size;
                double share = newestShare(size, calls, pre);
                f = failed * share;
                s = slow * share;
            } else {
                long covered = Math.min(size - calls, previousCalls);
                double share = newestShare(covered, previousCalls, previousPre);
                c = calls + covered;
                f = failed + previousFailed * share;
                s = slow + previousSlow * share;
            }
        } else {
            double weight = previousWeight(config, nowMillis);
            boolean current = block == Math.floorDiv(nowMillis, blockMillis(config));
            c = (current ? calls : 0) + previousCalls(config, nowMillis) * weight;
            f = (current ? failed : 0) + previousOf(previousFailed, failed, config, nowMillis) * weight;
            s = (current ? slow : 0) + previousOf(previousSlow, slow, config, nowMillis) * weight;
        }
        long calls = Math.round(c);
        if (calls < config.getMinimumNumberOfCalls() || calls <= 0) {
            return null;
        }
        long failedCalls = Math.round(f);
        long slowCalls = Math.round(s);
        String cause = null;
        if (failedCalls > 0 && failedCalls * 100f >= config.getFailureRateThreshold() * calls) {
            cause = "FAILURE_RATE";
        } else if (slowCalls > 0 && slowCalls * 100f >= config.getSlowCallRateThreshold() * calls) {
            cause = "SLOW_CALL_RATE";
        }
        return cause == null
                ? null
                : new String[] {cause, calls + "," + Math.min(failedCalls, calls) + "," + Math.min(slowCalls, calls)};
    }

    /**
     * COUNT_BASED: of a block of {@code calls}, {@code older} of them successes older than all the rest,
     * which part of the rest (which hold its failed and slow calls) the newest {@code covered} calls are.
     */
    private static double newestShare(long covered, long calls, long older) {
        long rest = Math.max(0, calls - older);
        return rest == 0 ? 0 : Math.min(covered, rest) / (double) rest;
    }

    /** TIME_BASED: how much of the previous block the window still covers, in [0, 1]. */
    private double previousWeight(BreakerConfig config, long nowMillis) {
        long length = blockMillis(config);
        long nowBlock = Math.floorDiv(nowMillis, length);
        if (nowBlock != block && nowBlock != block + 1) {
            return 0;
        }
        return 1 - Math.floorMod(nowMillis, length) / (double) length;
    }

    /** TIME_BASED: when the clock has moved into the next block, the current counters are the previous block. */
    private long previousCalls(BreakerConfig config, long nowMillis) {
        return previousOf(previousCalls, calls, config, nowMillis);
    }

    private long previousOf(long previous, long current, BreakerConfig config, long nowMillis) {
        if (config.getSlidingWindowType() == SlidingWindowType.TIME_BASED
                && Math.floorDiv(nowMillis, blockMillis(config)) == block + 1) {
            return current;
        }
        return previous;
    }

    static long blockMillis(BreakerConfig config) {
        return config.getSlidingWindowSize() * 1000L;
    }
}
