package io.breaker;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two threads of one cell race to claim it: a window of the last 2 calls holds a success (ticket 0)
 * and a failure (ticket 1), its cells made and free. Thread 16 records two successes and thread 32
 * one (ids 16 and 32 fall on one cell whatever the number of cells). The thread that claims the cell
 * counts in its own count with plain writes, the other in the shared count; whichever count reaches
 * the window's size (2) writes its successes itself, and the arbiter's reading takes the rest.
 *
 * <p>The three successes are each written once: the cursor ends at 5 and the failure is pushed out.
 * What is never allowed: a success lost (two owners writing one count) or written twice, counts that
 * differ from the ring's slots.
 *
 * <p>Result: (calls counted, failed counted, failed in the ring's slots, tickets taken), read after the
 * arbiter's reading.
 */
@JCStressTest
@Description("CountWindow: two threads claim one cell; their successes are each written once")
@Outcome(id = "2, 0, 0, 5", expect = ACCEPTABLE, desc = "Every success written once, the failure pushed out.")
@Outcome(expect = FORBIDDEN, desc = "A success lost or written twice, or counts that disagree with the ring.")
@org.openjdk.jcstress.annotations.State
public class CountWindowCellOwnerTest {

    private final CountWindow window = CountWindowCellsStartTest.successThenFailure();
    private final long[] cells = window.startCells();

    @Actor
    public void twoSuccesses(IIII_Result r) {
        window.waitInCell(cells, 16L);
        window.waitInCell(cells, 16L);
    }

    @Actor
    public void oneSuccess(IIII_Result r) {
        window.waitInCell(cells, 32L);
    }

    @Arbiter
    public void counts(IIII_Result r) {
        int[] counted = window.counts(0L);
        r.r1 = counted[0];
        r.r2 = counted[1];
        r.r3 = window.slotCounts()[1];
        r.r4 = window.ticketsTaken();
    }
}
