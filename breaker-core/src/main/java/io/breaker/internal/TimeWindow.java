package io.breaker.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The calls of the last N seconds, in N one-second buckets. Internal: not part of the public API.
 *
 * <p>Each bucket holds a call count and a packed "bad" count (failed in the high 32 bits, slow in the
 * low 32, both signed); the window keeps the same two sums over all buckets, so evaluating costs two
 * reads rather than a pass over the buckets. A record adds to its bucket and to the sums with atomic
 * additions. When time moves past the newest second seen, one thread wins a compare-and-set on
 * {@code head} and drains the buckets that fell out of the window ({@code getAndSet(0)}), subtracting
 * what it took from the sums. A thread that was descheduled across a second boundary may add its call
 * to the next second's bucket: the sums stay exact, the call just leaves the window one second late.
 */
public final class TimeWindow extends SlidingWindow {

    private static final VarHandle HEAD;
    private static final VarHandle TOTAL_CALLS;
    private static final VarHandle TOTAL_BAD;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(TimeWindow.class, "head", long.class);
            TOTAL_CALLS = lookup.findVarHandle(TimeWindow.class, "totalCalls", long.class);
            TOTAL_BAD = lookup.findVarHandle(TimeWindow.class, "totalBad", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long origin;
    private final long[] calls;
    private final long[] bad;
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;
    @SuppressWarnings("unused") // accessed through TOTAL_CALLS
    private volatile long totalCalls;
    @SuppressWarnings("unused") // accessed through TOTAL_BAD
    private volatile long totalBad;

    public TimeWindow(int seconds, int minimumNumberOfCalls, float failureRateThreshold,
                      float slowCallRateThreshold, long nowNanos) {
        super(minimumNumberOfCalls, failureRateThreshold, slowCallRateThreshold);
        this.origin = nowNanos;
        this.calls = new long[seconds];
        this.bad = new long[seconds];
    }

    @Override
    public boolean record(int outcome, long nowNanos) {
        long second = advance(nowNanos);
        int bucket = (int) (second % calls.length);
        LONGS.getAndAdd(calls, bucket, 1L);
        TOTAL_CALLS.getAndAdd(this, 1L);
        long badUnit = badUnit(outcome);
        if (badUnit != 0) {
            LONGS.getAndAdd(bad, bucket, badUnit);
            TOTAL_BAD.getAndAdd(this, badUnit);
        }
        return true;
    }

    @Override
    public int evaluate(long nowNanos) {
        advance(nowNanos);
        long packedBad = (long) TOTAL_BAD.getVolatile(this);
        return verdict((long) TOTAL_CALLS.getVolatile(this), failed(packedBad), slow(packedBad));
    }

    @Override
    public int[] counts(long nowNanos) {
        advance(nowNanos);
        long packedBad = (long) TOTAL_BAD.getVolatile(this);
        long total = (long) TOTAL_CALLS.getVolatile(this);
        return new int[] {clamp(total), clamp(failed(packedBad)), clamp(slow(packedBad))};
    }

    @Override
    public boolean needsClock() {
        return true;
    }

    /** Moves the head to the current second, draining expired buckets; returns the current second. */
    private long advance(long nowNanos) {
        long second = Math.max(0, (nowNanos - origin) / NANOS_PER_SECOND);
        long seen = (long) HEAD.getVolatile(this);
        while (second > seen) {
            if (HEAD.compareAndSet(this, seen, second)) {
                long expired = Math.min(second - seen, calls.length);
                for (long s = second - expired + 1; s <= second; s++) {
                    drain((int) (s % calls.length));
                }
                break;
            }
            seen = (long) HEAD.getVolatile(this);
        }
        return second;
    }

    private void drain(int bucket) {
        long drainedCalls = (long) LONGS.getAndSet(calls, bucket, 0L);
        long drainedBad = (long) LONGS.getAndSet(bad, bucket, 0L);
        if (drainedCalls != 0) {
            TOTAL_CALLS.getAndAdd(this, -drainedCalls);
        }
        if (drainedBad != 0) {
            TOTAL_BAD.getAndAdd(this, -drainedBad);
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
