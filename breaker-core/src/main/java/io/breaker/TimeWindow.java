package io.breaker;

import static io.breaker.spi.OutcomeBits.FAILED;
import static io.breaker.spi.OutcomeBits.SLOW;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The calls of the last N seconds. Package-private: not part of the API.
 *
 * <p>Two running totals count every call ever recorded ({@code totalCalls}) and the failed and slow
 * ones ({@code totalBad}: failed in the high 32 bits, slow in the low 32). For each recent second,
 * a ring keeps what the totals were when that second began ({@code callsAt}, {@code badAt}); the
 * window's counts are the totals minus their values at the start of its oldest second. A success is
 * one atomic addition (to {@code totalCalls}), whatever the window's length, and evaluating costs
 * four reads, not a pass over the seconds.
 *
 * <p>{@code head} is the newest second seen. When time moves past it, one thread claims the move
 * ({@code claimed}, by compare-and-set from the current head, so no two moves overlap), writes the
 * totals as the start of every new second, then publishes the new head. Other callers never wait
 * for it. There are {@link #SPARE} more slots than seconds: a reader that saw head {@code h} reads
 * the slot of second {@code h - N + 1}, which only a move beyond {@code h + SPARE} rewrites; a reader
 * that finds one under way or done retries (a bounded number of times). What is approximate:
 * <ul>
 * <li>a call recorded while its second is being claimed may count in the second before it (its
 *     addition can land before the claimant reads the totals), so it leaves the window up to one
 *     second early, and a call recorded while the claimant is stalled counts in the second of the
 *     head it saw;</li>
 * <li>a call recorded late (its thread read the clock, then stalled) counts in its own second:
 *     the starts of the seconds after it, up to the head it saw, are raised by it, so one whose
 *     second has already left the window is counted in none; until that is done (a few additions),
 *     a reader may see it counted, and a move published meanwhile may keep it in the window up to
 *     that move's length longer.</li>
 * </ul>
 * Counts never go below zero, and failed and slow never exceed calls: a failure adds its call
 * before its bad bit, readers read the bad total before the calls, and the claimant reads the calls
 * before the bad total; what is left is clamped.
 */
final class TimeWindow extends SlidingWindow {

    private static final VarHandle HEAD;
    private static final VarHandle CLAIMED;
    private static final VarHandle TOTAL_CALLS;
    private static final VarHandle TOTAL_BAD;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** Slots beyond the window's seconds: how far a move may go before a reader's slot is rewritten. */
    static final int SPARE = 3;
    /** How often a reader retries when a move ran between its reads before it reads anyway. */
    private static final int READ_ATTEMPTS = 64;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(TimeWindow.class, "head", long.class);
            CLAIMED = lookup.findVarHandle(TimeWindow.class, "claimed", long.class);
            TOTAL_CALLS = lookup.findVarHandle(TimeWindow.class, "totalCalls", long.class);
            TOTAL_BAD = lookup.findVarHandle(TimeWindow.class, "totalBad", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long origin;
    /** The window's length, in seconds (the slots are {@code seconds + SPARE}). */
    private final int seconds;
    /** {@code callsAt[s % length]}: {@code totalCalls} when second {@code s} began (second 0: 0). */
    private final long[] callsAt;
    /** {@code badAt[s % length]}: {@code totalBad} when second {@code s} began. */
    private final long[] badAt;
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;
    /** The second a move is going to, or {@code head} when none is under way. */
    @SuppressWarnings("unused") // accessed through CLAIMED
    private volatile long claimed;
    @SuppressWarnings("unused") // accessed through TOTAL_CALLS
    private volatile long totalCalls;
    @SuppressWarnings("unused") // accessed through TOTAL_BAD
    private volatile long totalBad;
    /**
     * Set by every move of the head (calls may have left the window), cleared by the next success,
     * which then asks for a verdict. A plain volatile flag is enough: a lost clear only costs one
     * more evaluation.
     */
    private volatile boolean expired;

    /**
     * An empty window of the calls of the last {@code seconds} seconds, starting at {@code nowNanos}.
     *
     * @param seconds               the window's length (one slot per second, plus {@link #SPARE})
     * @param minimumNumberOfCalls  calls needed before any rate is evaluated
     * @param failureRateThreshold  failure rate, in percent, that trips
     * @param slowCallRateThreshold slow-call rate, in percent, that trips
     * @param nowNanos              the clock's reading now: second 0 of the window starts here
     */
    TimeWindow(int seconds, int minimumNumberOfCalls, float failureRateThreshold,
                      float slowCallRateThreshold, long nowNanos) {
        super(minimumNumberOfCalls, failureRateThreshold, slowCallRateThreshold);
        this.origin = nowNanos;
        this.seconds = seconds;
        this.callsAt = new long[seconds + SPARE];
        this.badAt = new long[seconds + SPARE];
    }

    @Override
    boolean record(int outcome, long nowNanos) {
        long second = advance(nowNanos);
        long badUnit = badUnit(outcome);
        // The addition first: the head is then read from the line it just wrote.
        long total = (long) TOTAL_CALLS.getAndAdd(this, 1L) + 1;
        if (badUnit != 0) {
            TOTAL_BAD.getAndAdd(this, badUnit);
        }
        long seen = (long) HEAD.getVolatile(this);
        if (second < seen) {
            // Late (its thread read the clock, then stalled): it counts in its own second, so the
            // seconds after it start with it already counted. One whose second has left the window
            // is then counted in none.
            for (long later = Math.max(second + 1, seen - callsAt.length + 1); later <= seen; later++) {
                int slot = (int) (later % callsAt.length);
                LONGS.getAndAdd(callsAt, slot, 1L);
                if (badUnit != 0) {
                    LONGS.getAndAdd(badAt, slot, badUnit);
                }
            }
            if (second <= seen - seconds) {
                return false;
            }
        }
        if (badUnit != 0) {
            return true;
        }
        // A good call only lowers the rates, except the one that brings the window to its minimum
        // number of calls, and the first one after the head moved (calls left the window, maybe
        // more good ones than bad). The oldest second's start is read from a line written once a second.
        if (expired) {
            expired = false;
            return true;
        }
        if (total <= minimumNumberOfCalls()) {
            return true;
        }
        int slot = startSlot(seen);
        return slot >= 0 && total - (long) LONGS.getVolatile(callsAt, slot) <= minimumNumberOfCalls();
    }

    @Override
    int evaluate(long nowNanos) {
        advance(nowNanos);
        // As counts(), without its array: this runs on the call path.
        long calls = 0L;
        long bad = 0L;
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            long seen = (long) HEAD.getVolatile(this);
            int slot = startSlot(seen);
            bad = (long) TOTAL_BAD.getVolatile(this) - (slot < 0 ? 0L : (long) LONGS.getVolatile(badAt, slot));
            calls = (long) TOTAL_CALLS.getVolatile(this) - (slot < 0 ? 0L : (long) LONGS.getVolatile(callsAt, slot));
            if (unmoved(seen)) {
                break;
            }
        }
        return verdict(calls, Math.min(calls, failed(bad)), Math.min(calls, slow(bad)));
    }

    /**
     * The counts, read so that no move of the head ran between the reads (after
     * {@link #READ_ATTEMPTS} tries, read anyway), clamped: failed and slow between 0 and calls.
     */
    @Override
    int[] counts(long nowNanos) {
        advance(nowNanos);
        long calls = 0L;
        long bad = 0L;
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            long seen = (long) HEAD.getVolatile(this);
            int slot = startSlot(seen);
            bad = (long) TOTAL_BAD.getVolatile(this) - (slot < 0 ? 0L : (long) LONGS.getVolatile(badAt, slot));
            calls = (long) TOTAL_CALLS.getVolatile(this) - (slot < 0 ? 0L : (long) LONGS.getVolatile(callsAt, slot));
            if (unmoved(seen)) {
                break;
            }
        }
        int callCount = clamp(calls);
        return new int[] {callCount, Math.min(callCount, clamp(failed(bad))), Math.min(callCount, clamp(slow(bad)))};
    }

    /** The slot of the oldest second in the window when the head is {@code seen}, or -1 before it is full (start 0). */
    private int startSlot(long seen) {
        long start = seen - seconds + 1;
        return start > 0 ? (int) (start % callsAt.length) : -1;
    }

    /** Whether the head is still {@code seen} and no move is under way. */
    private boolean unmoved(long seen) {
        return (long) CLAIMED.getVolatile(this) == seen && (long) HEAD.getVolatile(this) == seen;
    }


    /**
     * Moves the head to the current second if no move is under way (one caller claims it; the others
     * go on without waiting), writing the totals as the start of each new second; returns the
     * current second.
     */
    private long advance(long nowNanos) {
        long second = Math.max(0, (nowNanos - origin) / NANOS_PER_SECOND);
        long seen = (long) HEAD.getVolatile(this);
        if (second > seen && CLAIMED.compareAndSet(this, seen, second)) {
            // Calls first, then bad: a failure counted in a start's bad total is counted in its calls too.
            long calls = (long) TOTAL_CALLS.getVolatile(this);
            long bad = (long) TOTAL_BAD.getVolatile(this);
            for (long next = Math.max(seen + 1, second - callsAt.length + 1); next <= second; next++) {
                int slot = (int) (next % callsAt.length);
                LONGS.setVolatile(callsAt, slot, calls);
                LONGS.setVolatile(badAt, slot, bad);
            }
            expired = true;
            HEAD.setVolatile(this, second);
        }
        return second;
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
