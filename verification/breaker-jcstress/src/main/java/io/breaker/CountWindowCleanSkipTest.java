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
 * The count window's skip: a success recorded while the window reads full of plain successes takes no
 * ticket and writes nothing. A window of the last call (at least 1, 50% failures trip) holds a
 * success; a failure and a success are recorded at the same moment.
 *
 * <p>Either the success comes first (it skips, or it finds the failure not yet counted and is
 * ordered before it) and the failure is the window's one call, or the failure comes first and the
 * success pushes it out, reporting a change. What is never allowed: the failure's record reporting
 * no change (it always replaces a success, so it must always ask for a verdict), counts that differ
 * from the ring's slots, a success that reports a change while the failure stays, a call count other
 * than 1.
 *
 * <p>Result: (1 if the failure's record reported a change, 1 if the success's did, calls counted,
 * failed counted, failed in the ring's slots, verdict: 1 when the failure rate is reached).
 */
@JCStressTest
@Description("CountWindow: a success that skips on a clean window, racing a failure, keeps counts and ring equal")
@Outcome(
        id = "1, 0, 1, 1, 1, 1",
        expect = ACCEPTABLE,
        desc = "The success first (or skipping beside the failure in flight): the failure is the window, which trips.")
@Outcome(id = "1, 1, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "The failure first: the success pushed it out.")
@Outcome(
        expect = FORBIDDEN,
        desc = "A failure skipped, counts that disagree with the ring, or a change reported wrongly.")
@org.openjdk.jcstress.annotations.State
public class CountWindowCleanSkipTest {

    private static final int FAILURE = OutcomeBits.CALL | OutcomeBits.FAILED;

    private final CountWindow window = fullOfASuccess();

    /** A window of the last call (at least 1, 50% failures trip) holding a success. */
    static CountWindow fullOfASuccess() {
        CountWindow window = new CountWindow(BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 1)
                .minimumNumberOfCalls(1)
                .failureRateThreshold(50f)
                .slowCallRateThreshold(100f)
                .build());
        window.record(OutcomeBits.CALL, 0L);
        return window;
    }

    @Actor
    public void failure(IIIIII_Result r) {
        r.r1 = window.record(FAILURE, 0L) ? 1 : 0;
    }

    @Actor
    public void success(IIIIII_Result r) {
        r.r2 = window.record(OutcomeBits.CALL, 0L) ? 1 : 0;
    }

    @Arbiter
    public void counts(IIIIII_Result r) {
        int[] counted = window.counts(0L);
        r.r3 = counted[0];
        r.r4 = counted[1];
        r.r5 = window.slotCounts()[1];
        r.r6 = window.evaluate(0L);
    }
}
