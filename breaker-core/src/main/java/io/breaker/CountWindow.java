package io.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The last N calls, in a ring of one byte per call. Package-private: not part of the API.
 *
 * <p>A record takes a ticket from {@code cursor} ({@code getAndAdd}), swaps its outcome into the
 * ticket's slot ({@code getAndSet}, so every outcome that leaves the ring is seen by exactly one
 * thread) and, only when the slot's content changed, adds the difference to {@code counts}. No lock,
 * no allocation; in the steady state of all-successes a record is two atomic instructions.
 *
 * <p>{@code counts} packs calls, failed and slow as three signed 21-bit fields of one long, so a
 * single atomic addition updates all three consistently. A field can be transiently negative (a
 * slot's removal applied before its arrival by another thread); decoding sign-extends each field,
 * which is exact while each true count is below 2^20, hence {@link io.breaker.BreakerConfig#MAX_COUNT_WINDOW}.
 */
final class CountWindow extends SlidingWindow {

    private static final VarHandle CURSOR;
    private static final VarHandle COUNTS;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(byte[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CURSOR = lookup.findVarHandle(CountWindow.class, "cursor", int.class);
            COUNTS = lookup.findVarHandle(CountWindow.class, "counts", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int SHIFT = 21;
    /** The packed increment each outcome bit set contributes to {@code counts}, indexed by outcome. */
    private static final long[] UNIT = new long[8];

    static {
        for (int outcome = 1; outcome < 8; outcome += 2) {
            UNIT[outcome] = 1L | ((long) (outcome >> 1 & 1) << SHIFT) | ((long) (outcome >> 2 & 1) << 2 * SHIFT);
        }
    }

    private final byte[] slots;
    @SuppressWarnings("unused") // accessed through CURSOR
    private volatile int cursor;
    @SuppressWarnings("unused") // accessed through COUNTS
    private volatile long counts;

    /**
     * An empty window of the last {@code size} calls.
     *
     * @param size                  calls the ring holds (1 to {@link io.breaker.BreakerConfig#MAX_COUNT_WINDOW})
     * @param minimumNumberOfCalls  calls needed before any rate is evaluated
     * @param failureRateThreshold  failure rate, in percent, that trips
     * @param slowCallRateThreshold slow-call rate, in percent, that trips
     */
    CountWindow(int size, int minimumNumberOfCalls, float failureRateThreshold, float slowCallRateThreshold) {
        super(minimumNumberOfCalls, failureRateThreshold, slowCallRateThreshold);
        this.slots = new byte[size];
    }

    @Override
    boolean record(int outcome, long nowNanos) {
        int ticket = (int) CURSOR.getAndAdd(this, 1);
        // Masking the sign makes the ring skip once every 2^31 calls; the counts stay exact.
        int index = (ticket & Integer.MAX_VALUE) % slots.length;
        // Reading first spares the common case (success over success) a contended write to a cache
        // line its neighbours' tickets share. Skipping the write when the slot already holds this
        // outcome is the same as writing it: any concurrent writer is ordered after this record.
        if ((byte) SLOTS.getVolatile(slots, index) == outcome) {
            return false;
        }
        int previous = (byte) SLOTS.getAndSet(slots, index, (byte) outcome);
        if (previous == outcome) {
            return false;
        }
        COUNTS.getAndAdd(this, UNIT[outcome] - UNIT[previous]);
        return true;
    }

    @Override
    int evaluate(long nowNanos) {
        long packed = (long) COUNTS.getVolatile(this);
        int calls = field(packed, 0);
        return verdict(calls, field(packed, 1), field(packed, 2));
    }

    @Override
    int[] counts(long nowNanos) {
        long packed = (long) COUNTS.getVolatile(this);
        return new int[] {Math.max(0, field(packed, 0)), Math.max(0, field(packed, 1)), Math.max(0, field(packed, 2))};
    }

    /** Decodes field {@code n} (0 = calls, 1 = failed, 2 = slow) of a packed value, sign-extended. */
    static int field(long packed, int n) {
        long rest = packed;
        for (int i = 0; i < n; i++) {
            long low = rest << (64 - SHIFT) >> (64 - SHIFT);
            rest = (rest - low) >> SHIFT;
        }
        return (int) (rest << (64 - SHIFT) >> (64 - SHIFT));
    }
}
