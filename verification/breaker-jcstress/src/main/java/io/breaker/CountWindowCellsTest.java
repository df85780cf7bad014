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
 * The count window's cells: successes on a full window that holds a failure wait in cells until the
 * next failure or reading takes them, or until a cell holds a window's worth. A window of the last 2
 * calls holds a success (ticket 0) and a failure (ticket 1), its cells made, and a success waits in a
 * cell; a success and a failure are recorded at the same moment (the success may fill the waiting
 * one's cell, when their threads share it, and write both).
 *
 * <p>Every success is taken from its cell exactly once, so the three records take tickets 2, 3 and 4
 * in some order and the cursor ends at 5. The failure's record reports no change only on ticket 3,
 * the slot of the old failure, and then stays in the window; on ticket 2 or 4 it replaces a success.
 * Two tickets of one slot may be written in either order (a slot keeps whichever write lands last,
 * with or without cells), so on tickets 2 and 4 the failure may be in the window or not. What is never allowed: a success lost
 * or taken twice (a cursor other than 5), counts that differ from the ring's slots, a call count other
 * than 2, more than one failure.
 *
 * <p>Result: (1 if the failure's record reported a change, calls counted, failed counted, failed in the
 * ring's slots, tickets taken), read after the arbiter's reading took what was left.
 */
@JCStressTest
@Description("CountWindow: successes waiting in cells and a failure: each success taken once")
@Outcome(
        id = "1, 2, 0, 0, 5",
        expect = ACCEPTABLE,
        desc = "The failure replaced a success and left, or was overwritten.")
@Outcome(id = "1, 2, 1, 1, 5", expect = ACCEPTABLE, desc = "The failure replaced a success and stays.")
@Outcome(id = "0, 2, 1, 1, 5", expect = ACCEPTABLE, desc = "The failure took the old failure's slot and stays.")
@Outcome(expect = FORBIDDEN, desc = "A success lost or counted twice, or counts that disagree with the ring.")
@org.openjdk.jcstress.annotations.State
public class CountWindowCellsTest {

    private static final int FAILURE = OutcomeBits.CALL | OutcomeBits.FAILED;

    private final CountWindow window = successThenFailure();

    /**
     * {@link CountWindowCellsStartTest#successThenFailure()}'s window (the last 2 calls, a success then
     * a failure), its cells made, and a success waiting in one.
     */
    static CountWindow successThenFailure() {
        CountWindow window = CountWindowCellsStartTest.successThenFailure();
        window.startCells();
        window.record(OutcomeBits.CALL, 0L);
        return window;
    }

    @Actor
    public void success(IIIII_Result r) {
        window.record(OutcomeBits.CALL, 0L);
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
