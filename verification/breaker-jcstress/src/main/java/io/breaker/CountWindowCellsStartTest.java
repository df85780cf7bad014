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
 * The count window makes its cells itself: a window of the last 2 calls holds a success (ticket 0)
 * and a failure (ticket 1), no cells yet, and two successes are recorded at the same moment. Each
 * takes the cursor by a compare-and-set; when both read the same ticket, the one whose
 * compare-and-set fails makes the cells and waits in its cell, where the arbiter's reading takes it.
 *
 * <p>Either way both successes end in the ring, on tickets 2 and 3, so the failure (slot 1) is gone
 * after the reading. What is never allowed: a success lost (the failure still counted, the cursor at
 * 3 after the reading) or counted twice, counts that differ from the ring's slots.
 *
 * <p>Result: (tickets taken before the arbiter's reading, calls counted, failed counted, failed in the
 * ring's slots, tickets taken after it).
 */
@JCStressTest
@Description("CountWindow: two successes race for the cursor of a full window that holds a failure")
@Outcome(id = "4, 2, 0, 0, 4", expect = ACCEPTABLE, desc = "Both took a ticket at once.")
@Outcome(
        id = "3, 2, 0, 0, 4",
        expect = ACCEPTABLE,
        desc = "One lost the compare-and-set, made the cells and waited in one until the reading.")
@Outcome(expect = FORBIDDEN, desc = "A success lost or counted twice, or counts that disagree with the ring.")
@org.openjdk.jcstress.annotations.State
public class CountWindowCellsStartTest {

    private static final int FAILURE = OutcomeBits.CALL | OutcomeBits.FAILED;

    private final CountWindow window = successThenFailure();

    /** A window of the last 2 calls (at least 1, 100% failures trip) holding a success, then a failure. */
    static CountWindow successThenFailure() {
        CountWindow window = new CountWindow(BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 2)
                .minimumNumberOfCalls(1)
                .failureRateThreshold(100f)
                .slowCallRateThreshold(100f)
                .build());
        window.record(OutcomeBits.CALL, 0L);
        window.record(FAILURE, 0L);
        return window;
    }

    @Actor
    public void first(IIIII_Result r) {
        window.record(OutcomeBits.CALL, 0L);
    }

    @Actor
    public void second(IIIII_Result r) {
        window.record(OutcomeBits.CALL, 0L);
    }

    @Arbiter
    public void counts(IIIII_Result r) {
        r.r1 = window.ticketsTaken();
        int[] counted = window.counts(0L);
        r.r2 = counted[0];
        r.r3 = counted[1];
        r.r4 = window.slotCounts()[1];
        r.r5 = window.ticketsTaken();
    }
}
