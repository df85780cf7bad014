package io.breaker;

import io.breaker.spi.OutcomeBits;
import org.jspecify.annotations.Nullable;

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
 * <p>A plain success on a full window that holds a failed or slow call cannot raise a rate, so it
 * needs no verdict, and only its place in the order matters: it must push the oldest outcome out
 * before the next failed or slow call is counted, and before a reading. Once two such successes have
 * contended for the cursor (a compare-and-set of the cursor failed), the window makes cells, four per
 * processor (at most 16) on cache lines of their own, chosen by thread id; a success then counts one
 * in its thread's cell and takes no ticket. A cell belongs to the first thread that counts in it (one
 * compare-and-set; thread ids are never reused): only that thread writes the cell's count, so its
 * success is a plain read and an ordered write, no atomic instruction; the cell's other threads add
 * to a second count with an atomic addition. The next failed or slow record, or reading, takes every
 * cell's successes (the owner's count by moving the cell's taken mark up to it with a compare-and-set,
 * the other count by an atomic swap, so each success is taken once) and writes that many successes
 * into the ring on consecutive tickets ahead of its own, the slots of one word in one compare-and-set;
 * a cell that reaches the window's size writes its own. Callers on different cores then write
 * different cache lines. The order is exact but for
 * records in flight: between a record's taking of the cells and its taking of tickets, another
 * failed or slow record can take its tickets first, so it is counted before successes that returned
 * before it (its verdict still sees the outcomes those successes push out, and it leaves the window
 * that many calls early: at most a window's size for each such record in flight). The cells cost
 * {@code (CELLS + 1) * 128} bytes, and only a breaker whose full window was contended while it held a
 * failed or slow call has them.
 *
 * <p>{@code counts} packs calls, failed and slow as three signed 21-bit fields of one long, so a
 * single atomic addition updates all three consistently. A field can be transiently negative (a
 * slot's removal applied before its arrival by another thread); decoding sign-extends each field,
 * which is exact while each true count is below 2^20, hence {@link io.breaker.BreakerConfig#MAX_COUNT_WINDOW}.
 */
final class CountWindow extends SlidingWindow {

    private static final VarHandle CURSOR;
    private static final VarHandle COUNTS;
    private static final VarHandle CELLS_FIELD;
    /** Elements of a {@code long[]}: the ring's words and the cells. */
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private static final int SLOTS_PER_WORD = 21;
    private static final int SLOT_BITS = 3;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    /** A word whose 21 slots each hold a plain success: the low bit of every slot, bits 0, 3, ..., 60. */
    private static final long EVERY_SLOT_A_CALL = 0x1249249249249249L;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CURSOR = lookup.findVarHandle(CountWindow.class, "cursor", int.class);
            COUNTS = lookup.findVarHandle(CountWindow.class, "counts", long.class);
            CELLS_FIELD = lookup.findVarHandle(CountWindow.class, "cells", long[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int SHIFT = 21;
    /** No outcome: an empty slot, or no outcome after a batch of successes. */
    private static final int EMPTY = 0;
    /**
     * Cells: a power of two, four per processor (a pool's thread ids are consecutive, so its threads
     * mostly own a cell each), at most 16.
     */
    static final int CELLS =
            Math.min(16, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4));
    /** 16 longs: 128 bytes between two cells (two cache lines, as adjacent-line prefetchers pair them). */
    private static final int CELL_SPACING = 16;
    // A cell's fields, as offsets from its first long: the successes its owner counted (written by the
    // owner alone), then:
    /** The plain successes the cell's other threads counted (atomic additions). */
    private static final int SHARED = 1;
    /** The thread id of the cell's owner, {@link #FREE} until a thread claims it. */
    private static final int OWNER = 2;
    /** How much of the owner's count was taken: 64 bytes from the count, on another cache line. */
    private static final int TAKEN = 8;
    /** No owner: thread ids start at 1. */
    private static final long FREE = 0L;
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
     * Plain successes recorded on a full window but not yet in the ring, a count per cell of 128
     * bytes, cell {@code i} at index {@code (i + 1) * 16}; null until two records contend for the
     * cursor on a full window.
     */
    private volatile long @Nullable [] cells;

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
        if (outcome == OutcomeBits.CALL) {
            long packed = (long) COUNTS.getVolatile(this);
            // A full window of plain successes packs to exactly (size, 0, 0), which is the long `size`.
            if (packed == size) {
                return false;
            }
            // A full window: the success can only lower a rate, so it needs no verdict and may wait.
            if ((int) (packed << (64 - SHIFT) >> (64 - SHIFT)) == size) {
                return successOnFullWindow();
            }
        } else {
            long[] table = cells;
            if (table != null) {
                return apply(takePending(table), outcome);
            }
        }
        return swap((int) CURSOR.getAndAdd(this, 1), outcome);
    }

    /**
     * A plain success on a full window that holds a failed or slow call. Until two records contend
     * for the cursor it takes its ticket at once; from then on it adds one to its thread's cell and
     * returns, and the next failed or slow record, reading or full cell moves the cells' successes
     * into the ring ahead of whatever comes next.
     */
    private boolean successOnFullWindow() {
        long[] table = cells;
        if (table == null) {
            int ticket = (int) CURSOR.getVolatile(this);
            if (CURSOR.compareAndSet(this, ticket, ticket + 1)) {
                return swap(ticket, OutcomeBits.CALL);
            }
            table = startCells();
        }
        waitInCell(table, Thread.currentThread().getId());
        return false;
    }

    /**
     * Counts a plain success in the cell of thread {@code thread}: in the cell's own count when that
     * thread owns the cell (or claims it now, free), else in the count the other threads of the cell
     * share. Package-private so that a test can put two threads in one cell.
     */
    void waitInCell(long[] table, long thread) {
        int cell = (((int) thread & (CELLS - 1)) + 1) * CELL_SPACING;
        long owner = (long) LONGS.getOpaque(table, cell + OWNER);
        if (owner == thread || (owner == FREE && LONGS.compareAndSet(table, cell + OWNER, FREE, thread))) {
            // Only this thread writes the count: a plain increment, published by a release store.
            long counted = (long) LONGS.get(table, cell) + 1;
            LONGS.setRelease(table, cell, counted);
            if (counted - (long) LONGS.getVolatile(table, cell + TAKEN) >= size) {
                // A cell holds a whole window of successes: they push every outcome out of the ring.
                apply(takeCounted(table, cell), EMPTY);
            }
        } else if ((long) LONGS.getAndAdd(table, cell + SHARED, 1L) + 1 >= size) {
            apply((long) LONGS.getAndSet(table, cell + SHARED, 0L), EMPTY);
        }
    }

    /**
     * The cells, created by the first record that lost the race for the cursor (one compare-and-set);
     * tests call it to start a window with cells.
     */
    long[] startCells() {
        long[] created = new long[(CELLS + 1) * CELL_SPACING];
        long[] witness = (long[]) CELLS_FIELD.compareAndExchange(this, (long[]) null, created);
        return witness == null ? created : witness;
    }

    /** Takes every success waiting in the cells (each one exactly once) and returns how many. */
    private static long takePending(long[] table) {
        long pending = 0;
        for (int cell = CELL_SPACING; cell < table.length; cell += CELL_SPACING) {
            pending += takeCounted(table, cell);
            // Reading first leaves the lines of idle cells unwritten.
            if ((long) LONGS.getVolatile(table, cell + SHARED) != 0) {
                pending += (long) LONGS.getAndSet(table, cell + SHARED, 0L);
            }
        }
        return pending;
    }

    /**
     * Takes the successes the owner of {@code cell} counted and no one took yet: moves the cell's
     * taken mark up to its count (a compare-and-set, so each success is taken once) and returns how
     * many it passed.
     */
    private static long takeCounted(long[] table, int cell) {
        while (true) {
            // The mark first: it never passes the count, so the count read after it is at least the mark.
            long taken = (long) LONGS.getVolatile(table, cell + TAKEN);
            long counted = (long) LONGS.getVolatile(table, cell);
            if (counted == taken) {
                return 0;
            }
            if (LONGS.compareAndSet(table, cell + TAKEN, taken, counted)) {
                return counted - taken;
            }
        }
    }

    /**
     * Records {@code successes} plain successes and then {@code outcome} (unless {@link #EMPTY}) on
     * consecutive tickets. More successes than the window holds leave the same ring as exactly that
     * many, so at most {@code size} are written.
     *
     * @return whether {@code outcome}'s slot changed
     */
    private boolean apply(long successes, int outcome) {
        int plain = (int) Math.min(successes, size);
        int tickets = outcome == EMPTY ? plain : plain + 1;
        if (tickets == 0) {
            return false;
        }
        int first = (int) CURSOR.getAndAdd(this, tickets);
        writeSuccesses(first, plain);
        return outcome != EMPTY && swap(first + plain, outcome);
    }

    /**
     * Puts plain successes into the slots of {@code count} consecutive tickets from {@code first}
     * (at most {@code size}, so each slot once): the slots one word holds in one compare-and-set, and
     * the counts' change of all of them in one addition. The same as a {@link #swap} per ticket, done
     * a word at a time.
     */
    private void writeSuccesses(int first, int count) {
        int index = first & Integer.MAX_VALUE;
        if (index > Integer.MAX_VALUE - count) {
            for (int i = 0; i < count; i++) { // the tickets cross the sign: slot by slot, as swap masks them
                swap(first + i, OutcomeBits.CALL);
            }
            return;
        }
        index %= size;
        long change = 0;
        for (int left = count; left > 0; ) {
            int word = index / SLOTS_PER_WORD;
            int slot = index - word * SLOTS_PER_WORD;
            int slots = Math.min(left, Math.min(SLOTS_PER_WORD - slot, size - index));
            long mask = ((1L << slots * SLOT_BITS) - 1) << slot * SLOT_BITS;
            long successes = EVERY_SLOT_A_CALL & mask;
            long seen = (long) LONGS.getVolatile(words, word);
            while ((seen & mask) != successes) {
                long witness = (long) LONGS.compareAndExchange(words, word, seen, seen & ~mask | successes);
                if (witness == seen) {
                    long leaving = seen & mask;
                    change += slots
                            - Long.bitCount(leaving & EVERY_SLOT_A_CALL)
                            - ((long) Long.bitCount(leaving & EVERY_SLOT_A_CALL << 1) << SHIFT)
                            - ((long) Long.bitCount(leaving & EVERY_SLOT_A_CALL << 2) << 2 * SHIFT);
                    break;
                }
                seen = witness;
            }
            left -= slots;
            index += slots;
            if (index == size) {
                index = 0;
            }
        }
        if (change != 0) {
            COUNTS.getAndAdd(this, change);
        }
    }

    /** Puts {@code outcome} into the slot of {@code ticket}; returns whether the slot's content changed. */
    private boolean swap(int ticket, int outcome) {
        // Masking the sign makes the ring skip once every 2^31 calls; the counts stay exact.
        int index = (ticket & Integer.MAX_VALUE) % size;
        int word = index / SLOTS_PER_WORD;
        int shift = (index - word * SLOTS_PER_WORD) * SLOT_BITS;
        // Reading first spares the common case (success over success) a contended write to a cache
        // line its neighbours' tickets share. Skipping the write when the slot already holds this
        // outcome is the same as writing it: any concurrent writer is ordered after this record.
        long seen = (long) LONGS.getVolatile(words, word);
        int previous = (int) (seen >>> shift & SLOT_MASK);
        while (previous != outcome) {
            long next = seen & ~(SLOT_MASK << shift) | (long) outcome << shift;
            long witness = (long) LONGS.compareAndExchange(words, word, seen, next);
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
        long[] table = cells;
        if (table != null) {
            apply(takePending(table), EMPTY); // a reading shows the successes that already returned
        }
        long packed = (long) COUNTS.getVolatile(this);
        return new int[] {Math.max(0, field(packed, 0)), Math.max(0, field(packed, 1)), Math.max(0, field(packed, 2))};
    }

    /** Starts the cursor at {@code ticket} instead of 0, before any record (for tests: the sign's crossing). */
    void startTicketsAt(int ticket) {
        CURSOR.setVolatile(this, ticket);
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
                    (long) LONGS.getVolatile(words, word) >>> (index - word * SLOTS_PER_WORD) * SLOT_BITS & SLOT_MASK;
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
