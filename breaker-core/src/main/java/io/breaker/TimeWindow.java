package io.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static io.breaker.spi.OutcomeBits.FAILED;
import static io.breaker.spi.OutcomeBits.SLOW;

/**
 * The calls of the last N seconds, in one-second buckets. Package-private: not part of the API.
 *
 * <p>Each bucket holds a call count and a packed "bad" count (failed in the high 32 bits, slow in the
 * low 32, both signed). A record adds to its bucket only: a success is one atomic addition, the same
 * as a count window's ticket, so the calling threads share one written cache line, not two. The
 * window's counts are the sums over the buckets of the seconds in the window, read when a verdict or
 * the counts are asked for: on a failure, and on the few successes that can make a verdict due.
 *
 * <p>{@code head} is the newest second seen; a call is recorded in its second's bucket only once the
 * head has reached that second. When time moves past the head, one thread wins a compare-and-set on
 * {@code head} and then drains the buckets of the seconds that left the window ({@code getAndSet(0)}).
 * There are {@link #SPARE} more buckets than seconds, so a
 * bucket drained when the head moves to {@code h} is not used again before second {@code h + SPARE}:
 * the calls of the new second, which land as soon as the head is published, are never in a bucket
 * being drained. (With exactly N buckets they were: the bucket of the new second was drained after
 * the head moved to it, taking the calls that had just landed there with it.) What is left:
 * <ul>
 * <li>a draining thread descheduled for about {@code SPARE - 1} seconds between its compare-and-set and
 *     its drain may take calls of a later second with it;</li>
 * <li>when the head jumps more than {@code SPARE} seconds at once (no call for a while), the new
 *     second's bucket is drained after the jump, so calls recorded in that instant may be taken
 *     with it;</li>
 * <li>a call whose second has already left the window when it is recorded is not counted;</li>
 * <li>a recording thread stalled for longer than the window between its check and its addition
 *     adds to a bucket that was already drained: that call then lingers until the bucket is next
 *     drained, at most one rotation ({@code seconds + SPARE} seconds) later.</li>
 * </ul>
 * In every case a call is counted at most once.
 */
final class TimeWindow extends SlidingWindow {

    private static final VarHandle HEAD;
    private static final VarHandle DRAINING;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** Buckets beyond the window's seconds: how far ahead a drained bucket is reused. */
    static final int SPARE = 3;
    /** How often a reader retries a pair of totals that a drain straddled before it reads anyway. */
    private static final int READ_ATTEMPTS = 64;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(TimeWindow.class, "head", long.class);
            DRAINING = lookup.findVarHandle(TimeWindow.class, "draining", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long origin;
    /** The window's length, in seconds (the buckets are {@code seconds + SPARE}). */
    private final int seconds;
    /** The settings' minimum number of calls, a copy: every success compares its bucket's count with it. */
    private final int minimumNumberOfCalls;

    private final long[] calls;
    private final long[] bad;

    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;
    /** Drains under way, and drains completed: a reader retries when a drain ran between its two reads. */
    @SuppressWarnings("unused") // accessed through DRAINING
    private volatile int draining;

    private volatile long drains;
    /**
     * Set when a drain removed calls, cleared by the next success, which then asks for a verdict.
     * A plain volatile flag is enough: a lost clear only costs one more evaluation.
     */
    private volatile boolean expired;

    /**
     * An empty window of the calls of the last seconds, as many as {@code rule}'s window size,
     * starting at {@code nowNanos}.
     *
     * @param rule     a time-based window's settings: its length in seconds (one bucket per second, plus
     *                 {@link #SPARE}), the minimum number of calls and the rate thresholds
     * @param nowNanos the clock's reading now: second 0 of the window starts here
     */
    TimeWindow(BreakerConfig rule, long nowNanos) {
        super(rule);
        this.origin = nowNanos;
        this.seconds = rule.getSlidingWindowSize();
        this.minimumNumberOfCalls = rule.getMinimumNumberOfCalls();
        this.calls = new long[seconds + SPARE];
        this.bad = new long[seconds + SPARE];
    }

    @Override
    boolean record(int outcome, long nowNanos) {
        long second = advance(nowNanos);
        if (second <= (long) HEAD.getVolatile(this) - seconds) {
            return false; // recorded so late that its second has left the window
        }
        int bucket = (int) (second % calls.length);
        long inBucket = (long) LONGS.getAndAdd(calls, bucket, 1L) + 1;
        long badUnit = badUnit(outcome);
        if (badUnit != 0) {
            LONGS.getAndAdd(bad, bucket, badUnit);
            return true;
        }
        // A good call only lowers the rates, except the one that brings the window to its minimum
        // number of calls, and the first one after seconds left the window (whoever drained them: a
        // record or a read): they may have taken more good calls than bad ones with them. Only then
        // can a success make a verdict due. The window holds at least this bucket's calls, so a
        // success whose bucket already holds more than the minimum is not the one that reaches it.
        if (expired) {
            expired = false;
            return true;
        }
        return inBucket <= minimumNumberOfCalls;
    }

    @Override
    int evaluate(long nowNanos) {
        advance(nowNanos);
        // As totals(), without its array.
        long head = (long) HEAD.getVolatile(this);
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            long before = drains;
            if ((int) DRAINING.getVolatile(this) == 0) {
                long calls = sum(this.calls, head);
                long bad = sum(this.bad, head);
                if ((int) DRAINING.getVolatile(this) == 0 && drains == before) {
                    return verdict(calls, failed(bad), slow(bad));
                }
            }
        }
        long calls = sum(this.calls, head);
        long bad = sum(this.bad, head);
        return verdict(calls, Math.min(calls, failed(bad)), Math.min(calls, slow(bad)));
    }

    @Override
    int[] counts(long nowNanos) {
        advance(nowNanos);
        long[] totals = totals();
        long total = totals[0];
        return new int[] {
            clamp(total), clamp(Math.min(total, failed(totals[1]))), clamp(Math.min(total, slow(totals[1])))
        };
    }

    /**
     * The calls and the packed bad counts, summed over the buckets so that no drain ran meanwhile:
     * a drain takes a whole second's calls, so sums straddling one would not be a state the window
     * had. A drain is rare (once per second) and short; a reader that keeps meeting one (a drainer
     * slower than this loop, or descheduled mid-drain) reads anyway after a bound. Such a read can
     * only under-state the failures: a drain takes a bucket's failures before its calls, and the
     * calls are summed first. The counts are clamped all the same, so that failed and slow never
     * exceed calls (a failure recorded between the two sums may show without its call).
     */
    private long[] totals() {
        long head = (long) HEAD.getVolatile(this);
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            long before = drains;
            if ((int) DRAINING.getVolatile(this) == 0) {
                long calls = sum(this.calls, head);
                long bad = sum(this.bad, head);
                if ((int) DRAINING.getVolatile(this) == 0 && drains == before) {
                    return new long[] {calls, bad};
                }
            }
        }
        long calls = sum(this.calls, head);
        long bad = sum(this.bad, head);
        return new long[] {calls, Math.min(failed(bad), calls) << 32 | Math.max(0, Math.min(slow(bad), calls))};
    }

    /**
     * The sum of the buckets of the seconds in the window when the head is at {@code head}, each
     * read once (summed bad counts stay packed: slow never borrows). Only those: the bucket of a
     * second that has left the window may not be drained yet, and a sum that took it with the calls
     * of the new second would count more calls than the window ever held.
     */
    private long sum(long[] buckets, long head) {
        long sum = 0L;
        for (long second = Math.max(0L, head - seconds + 1); second <= head; second++) {
            sum += (long) LONGS.getVolatile(buckets, (int) (second % buckets.length));
        }
        return sum;
    }

    /** Moves the head to the current second, then drains the seconds that left the window; returns the current second. */
    private long advance(long nowNanos) {
        long second = Math.max(0, (nowNanos - origin) / NANOS_PER_SECOND);
        long seen = (long) HEAD.getVolatile(this);
        while (second > seen) {
            if (HEAD.compareAndSet(this, seen, second)) {
                // The seconds (seen - N, second - N] left the window; no bucket needs draining twice.
                long first = Math.max(Math.max(0, seen - seconds + 1), second - seconds - calls.length + 1);
                if (first <= second - seconds) {
                    DRAINING.getAndAdd(this, 1);
                    try {
                        for (long expired = first; expired <= second - seconds; expired++) {
                            drain((int) (expired % calls.length));
                        }
                    } finally {
                        drains++; // only under DRAINING > 0; readers compare it, a lost increment only costs a retry
                        DRAINING.getAndAdd(this, -1);
                    }
                }
                break;
            }
            seen = (long) HEAD.getVolatile(this);
        }
        return second;
    }

    private void drain(int bucket) {
        // Bug found by breaker-jcstress (TimeWindowDrainTest): the calls used to leave the window
        // before their failures. A reader that gave up waiting for the drain (READ_ATTEMPTS; a
        // drainer merely slower than the reader's spin, not only a descheduled one, is enough) read
        // the calls after it and the failures before it: 1 call and 2 failures, clamped to 1 of 1,
        // a 100% failure rate the window never had, and evaluate() tripped a healthy breaker as old
        // failures expired. Now the failures leave first: readers sum the calls, then the
        // failures, so a read that straddles a drain can only see fewer failures than the window
        // had (it may delay a trip by one record), never more.
        LONGS.getAndSet(bad, bucket, 0L);
        long drainedCalls = (long) LONGS.getAndSet(calls, bucket, 0L);
        if (drainedCalls != 0) {
            expired = true;
        }
    }

    private static long badUnit(int outcome) {
        return ((outcome & FAILED) != 0 ? 1L << 32 : 0L) + ((outcome & SLOW) != 0 ? 1L : 0L);
    }

    private static long slow(long packedBad) {
        return (int) packedBad;
    }

    private static long failed(long packedBad) {
        return (packedBad - (int) packedBad) >> 32;
    }

    private static int clamp(long count) {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, count));
    }
}
