package io.breaker;

import io.breaker.spi.OutcomeBits;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The last N calls, in a ring of three bits per call (21 calls in each {@code long}). Package-private:
 * not part of the API.
 *
 * <p>A record takes a ticket from {@code cursor} ({@code getAndAdd}), swaps its outcome into the
 * ticket's slot (a compare-and-set of the slot's word, so every outcome that leaves the ring is seen
 * by exactly one thread) and, only when the slot's content changed, adds the difference to
 * {@code counts}. No lock, no allocation; in the steady state of all-successes a record is one
 * atomic instruction (the ticket) and one read of the slot's word. Three bits hold the five
 * contents of a slot: empty (0) or an outcome ({@link io.breaker.spi.OutcomeBits#CALL}, with {@link io.breaker.spi.OutcomeBits#FAILED} and
 * {@link io.breaker.spi.OutcomeBits#SLOW}: 1, 3, 5 or 7). A window of 100 calls keeps its ring in 5 words (56 bytes with
 * the array's header; one byte per call took 120).
 *
 * <p>A plain success recorded while {@code counts} reads a full window of plain successes takes no
 * ticket and writes nothing: the window it would leave is the one it finds (N plain successes; their
 * order is invisible, so which one leaves makes no difference). That is the steady state of a healthy
 * dependency, and in it callers on different cores share a read-only cache line instead of all
 * writing the cursor's. The skip is exact when no other record is in flight; beside one that has
 * taken its ticket but not yet added its change to {@code counts}, the success is ordered before it,
 * which can keep the window's oldest outcome in the ring for one more call (the same order an
 * evaluation may already see in part).
 *
 * <p>{@code counts} packs calls, failed and slow as three signed 21-bit fields of one long, so a
 * single atomic addition updates all three consistently. A field can be transiently negative (a
 * slot's removal applied before its arrival by another thread); decoding sign-extends each field,
 * which is exact while each true count is below 2^20, hence {@link io.breaker.BreakerConfig#MAX_COUNT_WINDOW}.
 */
final class CountWindow extends SlidingWindow {

    private static final VarHandle CURSOR;
    private static final VarHandle COUNTS;
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int SLOTS_PER_WORD = 21;
    private static final int SLOT_BITS = 3;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;

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

    private final long[] words;
    private final int size;

    @SuppressWarnings("unused") // accessed through CURSOR
    private volatile int cursor;

    @SuppressWarnings("unused") // accessed through COUNTS
    private volatile long counts;

    /**
     * An empty window of the last calls, as many as {@code rule}'s window size.
     *
     * @param rule a count-based window's settings: its size (1 to {@link io.breaker.BreakerConfig#MAX_COUNT_WINDOW}),
     *             the minimum number of calls and the rate thresholds
     */
    CountWindow(BreakerConfig rule) {
        super(rule);
        this.size = rule.getSlidingWindowSize();
        this.words = new long[(size + SLOTS_PER_WORD - 1) / SLOTS_PER_WORD];
    }

    @Override
    boolean record(int outcome, long nowNanos) {
        // A full window of plain successes packs to exactly (size, 0, 0), which is the long `size`.
        if (outcome == OutcomeBits.CALL && (long) COUNTS.getVolatile(this) == size) {
            return false;
        }
        int ticket = (int) CURSOR.getAndAdd(this, 1);
        // Masking the sign makes the ring skip once every 2^31 calls; the counts stay exact.
        int index = (ticket & Integer.MAX_VALUE) % size;
        int word = index / SLOTS_PER_WORD;
        int shift = (index - word * SLOTS_PER_WORD) * SLOT_BITS;
        // Reading first spares the common case (success over success) a contended write to a cache
        // line its neighbours' tickets share. Skipping the write when the slot already holds this
        // outcome is the same as writing it: any concurrent writer is ordered after this record.
        long seen = (long) WORDS.getVolatile(words, word);
        int previous = (int) (seen >>> shift & SLOT_MASK);
        while (previous != outcome) {
            long next = seen & ~(SLOT_MASK << shift) | (long) outcome << shift;
            long witness = (long) WORDS.compareAndExchange(words, word, seen, next);
            if (witness == seen) {
                COUNTS.getAndAdd(this, UNIT[outcome] - UNIT[previous]);
                return true;
            }
            seen = witness; // another slot of the word changed, or this one: look again
            previous = (int) (seen >>> shift & SLOT_MASK);
        }
        return false;
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

    /** Tickets taken so far: the calls that went through the ring (for tests). */
    int ticketsTaken() {
        return (int) CURSOR.getVolatile(this);
    }

    /** Calls, failed and slow counted from the ring's slots themselves, not from {@code counts} (for tests). */
    int[] slotCounts() {
        int[] counted = new int[3];
        for (int index = 0; index < size; index++) {
            int word = index / SLOTS_PER_WORD;
            long slot =
                    (long) WORDS.getVolatile(words, word) >>> (index - word * SLOTS_PER_WORD) * SLOT_BITS & SLOT_MASK;
            counted[0] += (int) (slot & OutcomeBits.CALL);
            counted[1] += (slot & OutcomeBits.FAILED) != 0 ? 1 : 0;
            counted[2] += (slot & OutcomeBits.SLOW) != 0 ? 1 : 0;
        }
        return counted;
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
