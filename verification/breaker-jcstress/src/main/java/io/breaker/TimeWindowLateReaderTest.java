package io.breaker;

import io.breaker.spi.OutcomeBits;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * As {@link TimeWindowDrainTest}, but the reader's clock is behind the recorder's: it reads at
 * 1.9 s, so it never moves the head itself, and when it sees the head still at second 1 it sums the
 * buckets of seconds 0 and 1, among them the bucket the recorder (at 2.5 s) is draining. That is
 * the read that must never see the drained calls gone and their failures still there.
 *
 * <p>Result: (calls read, failed calls read, verdict: 0 below thresholds, 1 failure rate reached).
 */
@JCStressTest
@Description("TimeWindow: a reader behind the drainer's clock, summing the bucket being drained")
@Outcome(id = "3, 2, 0", expect = ACCEPTABLE, desc = "Read before the drain: 2 of 3 failed (66%).")
@Outcome(
        id = "1, 0, 0",
        expect = ACCEPTABLE,
        desc = "Read after the drain (seconds 0 and 1, or 1 and 2 before the new success).")
@Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "Read seconds 1 and 2, after the new success.")
@Outcome(
        id = "3, 0, 0",
        expect = ACCEPTABLE_INTERESTING,
        desc = "The reader gave up waiting for the drain (a bounded "
                + "spin) and read the calls before it, the failures after it: failures under-stated, which can delay a trip "
                + "by one record, never cause one.")
@Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "A trip on a rate the window never had (the drain seen in part).")
@Outcome(expect = FORBIDDEN, desc = "Counts that mix before and after the drain.")
@org.openjdk.jcstress.annotations.State
public class TimeWindowLateReaderTest {

    private static final long MS = 1_000_000L;

    private final TimeWindow window = TimeWindowDrainTest.twoFailuresOfThreeCalls();

    @Actor
    public void recorder() {
        window.record(OutcomeBits.CALL, 2_500 * MS);
    }

    @Actor
    public void reader(III_Result r) {
        int[] counts = window.counts(1_900 * MS);
        r.r1 = counts[0];
        r.r2 = counts[1];
        r.r3 = window.evaluate(1_900 * MS);
    }
}
