package io.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts an OPEN breaker's rejections, exactly, without an atomic read-modify-write on the common
 * path. An outage sends the most traffic into the breaker exactly when it rejects, so a rejection
 * must cost about the clock reading that decides it, and nothing every calling thread writes.
 *
 * <p>The counter is a table of slots, each on a cache line of its own. A slot belongs to the first
 * thread that claims it (one compare-and-set, once per thread), chosen by the thread's id; from then
 * on only that thread writes the slot's count, so an increment is a plain read and an ordered write
 * of a line no other thread writes. Thread ids are never reused, so a slot never changes hands. A
 * thread whose slot another thread owns counts in a {@link LongAdder} instead, which is what every
 * rejection paid before. The sum is exact once no increment is under way; one taken meanwhile may
 * leave out the increments of that instant, and a later sum never shows fewer.
 */
final class RejectionCounter {

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** CircuitBreaker.rejections, package-private: this class's lookup reaches it. */
    private static final VarHandle REJECTED;

    static {
        try {
            REJECTED = MethodHandles.lookup().findVarHandle(CircuitBreaker.class, "rejections", RejectionCounter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 16 longs: 128 bytes between two slots (two cache lines, as adjacent-line prefetchers pair them). */
    private static final int SPACING = 16;
    /** Slots: a power of two, four per processor (thread ids of a pool are consecutive), at most 64. */
    static final int SLOTS =
            Math.min(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4));
    /** No thread: thread ids start at 1. */
    private static final long FREE = 0L;

    /** Slot {@code i}: its owner's thread id at {@code (i + 1) * SPACING}, its count right after. */
    private final long[] slots;
    /** The number of slots minus one. */
    private final int mask;
    /** Rejections of threads whose slot another thread owns. */
    private final LongAdder others = new LongAdder();

    RejectionCounter() {
        this(SLOTS);
    }

    /** With {@code slots} slots, a power of two (a test gives 1, so that two threads share one). */
    RejectionCounter(int slots) {
        if (slots < 1 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two, was " + slots);
        }
        this.slots = new long[(slots + 1) * SPACING];
        this.mask = slots - 1;
    }

    /**
     * The counter of {@code breaker}, which its first rejection creates: one compare-and-exchange
     * sets it, and a caller that loses that race (another first rejection at the same moment) gets
     * the winner's, so every rejection lands in the one counter the readings sum. Only a breaker's
     * first rejections come here; later ones find the field set.
     */
    static RejectionCounter firstFor(CircuitBreaker breaker) {
        RejectionCounter created = new RejectionCounter();
        RejectionCounter witness =
                (RejectionCounter) REJECTED.compareAndExchange(breaker, (RejectionCounter) null, created);
        return witness == null ? created : witness;
    }

    /** Counts one rejection of the calling thread. */
    void increment() {
        long[] table = slots; // one read of the field: the ordered accesses below would reload it
        long thread = Thread.currentThread().getId();
        int at = (((int) thread & mask) + 1) * SPACING;
        long owner = (long) LONGS.getOpaque(table, at);
        if (owner != thread && (owner != FREE || !LONGS.compareAndSet(table, at, FREE, thread))) {
            others.increment();
            return;
        }
        // Only the owner writes this count: a plain read of its own last write, then an ordered
        // write that readers on other threads see whole.
        LONGS.setRelease(table, at + 1, table[at + 1] + 1);
    }

    /** Rejections counted so far (exact once no increment is under way). */
    long sum() {
        long sum = others.sum();
        for (int slot = 1; slot <= mask + 1; slot++) {
            sum += (long) LONGS.getAcquire(slots, slot * SPACING + 1);
        }
        return sum;
    }
}
