package io.breaker;

import io.breaker.spi.OutcomeBits;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The count window's cells, taken by a reading and a failure at once. A window of the last 2 calls
 * holds a success (ticket 0) and a failure (ticket 1), its cells made, and a success waits in a cell;
 * a failure is recorded while the window is read.
 *
 * <p>Whichever of the two takes the waiting success writes it, so the cursor ends at 4. If the
 * success gets ticket 2 it changes nothing (a success over a success) and the failure, on ticket 3,
 * lands on the old failure's slot: no change reported. If the failure gets ticket 2 (the reading took
 * the success but the failure's tickets came first) it replaces the success of ticket 0 and the
 * success of ticket 3 pushes the old failure out. Either way the window ends with one failure. The
 * reading shows the window after the success it took: one failure, or none when it caught the old
 * failure pushed out and the new one not yet written. What is never allowed: the success lost or
 * written twice, counts that differ from the ring's slots, a reading with two failures.
 *
 * <p>Result: (1 if the failure's record reported a change, failed in the reading, then after the
 * arbiter's reading: calls counted, failed counted, failed in the ring's slots, tickets taken).
 */
@JCStressTest
@Description("CountWindow: a reading and a failure take a waiting success once")
@Outcome(
        id = "0, 1, 2, 1, 1, 4",
        expect = ACCEPTABLE,
        desc = "The success first, then the failure on the old failure's slot.")
@Outcome(id = "1, 1, 2, 1, 1, 4", expect = ACCEPTABLE, desc = "The failure's ticket first, read after it was written.")
@Outcome(
        id = "1, 0, 2, 1, 1, 4",
        expect = ACCEPTABLE,
        desc = "The failure's ticket first, read before it was written and after the success was.")
@Outcome(expect = FORBIDDEN, desc = "A success lost or written twice, or counts that disagree with the ring.")
@org.openjdk.jcstress.annotations.State
public class CountWindowCellsReadingTest {

    private static final int FAILURE = OutcomeBits.CALL | OutcomeBits.FAILED;

    private final CountWindow window = CountWindowCellsTest.successThenFailure();

    @Actor
    public void failure(IIIIII_Result r) {
        r.r1 = window.record(FAILURE, 0L) ? 1 : 0;
    }

    @Actor
    public void reading(IIIIII_Result r) {
        r.r2 = window.counts(0L)[1];
    }

    @Arbiter
    public void counts(IIIIII_Result r) {
        int[] counted = window.counts(0L);
        r.r3 = counted[0];
        r.r4 = counted[1];
        r.r5 = window.slotCounts()[1];
        r.r6 = window.ticketsTaken();
    }
}
