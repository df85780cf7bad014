package io.breaker.redis;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts a shared breaker's successes on the call path, exactly, without one cache line that every
 * calling thread writes: one cell per stripe, each on a cache line of its own, the stripe chosen
 * by the calling thread's id. {@link #increment()} also tells the caller how many its stripe holds,
 * which {@link RedisSharedState} uses to look at the clock only every so many calls.
 */
final class SuccessCounter {

    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
    /** 16 longs: 128 bytes between two cells (two cache lines, as adjacent-line prefetchers pair them). */
    private static final int SPACING = 16;
    /** Stripes: a power of two, twice the processors (so that threads rarely share one), at most 64. */
    private static final int STRIPES =
            Math.min(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1));

    /** Cell {@code i} at {@code (i + 1) * SPACING}: none shares a line with the array's header either. */
    private final long[] cells = new long[(STRIPES + 1) * SPACING];

    /** Adds one success; returns the calling thread's stripe's count after it. */
    long increment() {
        int stripe = (int) Thread.currentThread().getId() & (STRIPES - 1);
        return (long) CELLS.getAndAdd(cells, (stripe + 1) * SPACING, 1L) + 1;
    }

    /** The successes counted so far and not yet taken (exact once no increment is under way). */
    long sum() {
        long sum = 0L;
        for (int stripe = 1; stripe <= STRIPES; stripe++) {
            sum += (long) CELLS.getVolatile(cells, stripe * SPACING);
        }
        return sum;
    }

    /** The successes counted since the last call, each exactly once (every cell is taken with getAndSet). */
    long sumThenReset() {
        long sum = 0L;
        for (int stripe = 1; stripe <= STRIPES; stripe++) {
            sum += (long) CELLS.getAndSet(cells, stripe * SPACING, 0L);
        }
        return sum;
    }
}
