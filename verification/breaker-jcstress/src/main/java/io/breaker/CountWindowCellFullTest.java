package io.breaker;

import io.breaker.spi.OutcomeBits;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A cell's owner fills its cell while a failure takes it: a window of the last 2 calls holds a
 * success (ticket 0) and a failure (ticket 1), its cells made, and thread 16 owns a cell where one
 * success waits. Thread 16 records a second success, which fills its count to the window's size, so
 * it takes its own successes and writes them; at the same moment a failure takes whatever waits.
 * Both take by moving the cell's taken mark up to the count with a compare-and-set.
 *
 * <p>Each success is taken once, so the cursor ends at 5 (as in {@link CountWindowCellsTest}, of
 * which this is the case where the success's thread owns the waiting one's cell for certain). What is
 * never allowed: a success lost or taken twice, counts that differ from the ring's slots, more than one
 * failure.
 *
 * <p>Result: (1 if the failure's record reported a change, calls counted, failed counted, failed in the
 * ring's slots, tickets taken), read after the arbiter's reading took what was left.
 */
@JCStressTest
@Description("CountWindow: an owner's full cell and a failure take its successes once")
@Outcome(
        id = "1, 2, 0, 0, 5",
        expect = ACCEPTABLE,
        desc = "The failure replaced a success and left, or was overwritten.")
@Outcome(id = "1, 2, 1, 1, 5", expect = ACCEPTABLE, desc = "The failure replaced a success and stays.")
@Outcome(id = "0, 2, 1, 1, 5", expect = ACCEPTABLE, desc = "The failure took the old failure's slot and stays.")
@Outcome(expect = FORBIDDEN, desc = "A success lost or taken twice, or counts that disagree with the ring.")
@org.openjdk.jcstress.annotations.State
public class CountWindowCellFullTest {

    private static final int FAILURE = OutcomeBits.CALL | OutcomeBits.FAILED;

    private final CountWindow window = CountWindowCellsStartTest.successThenFailure();
    private final long[] cells = ownedCellWithASuccess(window);

    private static long[] ownedCellWithASuccess(CountWindow window) {
        long[] cells = window.startCells();
        window.waitInCell(cells, 16L);
        return cells;
    }

    @Actor
    public void success(IIIII_Result r) {
        window.waitInCell(cells, 16L);
    }

    @Actor
    public void failure(IIIII_Result r) {
        r.r1 = window.record(FAILURE, 0L) ? 1 : 0;
    }

    @Arbiter
    public void counts(IIIII_Result r) {
        int[] counted = window.counts(0L);
        r.r2 = counted[0];
        r.r3 = counted[1];
        r.r4 = window.slotCounts()[1];
        r.r5 = window.ticketsTaken();
    }
}
