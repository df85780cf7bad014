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
 * The time window's counts stay consistent across a second-boundary drain. A 2-second window
 * (at least 1 call, 70% failures trip) holds 2 failures of second 0 and 1 success of second 1:
 * 3 calls, 2 failed, 66%. At 2.5 s a success is recorded, which moves the head to second 2 and
 * drains second 0 (its 2 calls and 2 failures leave), while a reader reads the counts and asks
 * for a verdict at the same time (whichever of the two moves the head drains).
 *
 * <p>The window passes through 3/2, then 1/0, then 2/0; a reader must see one of these, never a
 * pair that mixes the calls after the drain with the failures before it (1 call, 2 failures: a
 * rate above 100%, clamped to 1/1), and its verdict must never be a trip (no state of the window
 * reaches 70%). The other mix (3/0: failures under-stated) is tolerated, and reported as
 * interesting.
 *
 * <p>Result: (calls read, failed calls read, verdict: 0 below thresholds, 1 failure rate reached).
 */
@JCStressTest
@Description("TimeWindow: a reader racing a second-boundary drain sees a state the window had")
@Outcome(id = "3, 2, 0", expect = ACCEPTABLE, desc = "Read before the drain: 2 of 3 failed (66%).")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "Read after the drain, before the new success.")
@Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "Read after the drain and the new success.")
@Outcome(
        id = "3, 0, 0",
        expect = ACCEPTABLE_INTERESTING,
        desc = "The reader gave up waiting for the drain (a bounded "
                + "spin) and read the calls before it, the failures after it: failures under-stated, which can delay a trip "
                + "by one record, never cause one.")
@Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "A trip on a rate the window never had (the drain seen in part).")
@Outcome(expect = FORBIDDEN, desc = "Counts that mix before and after the drain.")
@org.openjdk.jcstress.annotations.State
public class TimeWindowDrainTest {

    private static final long MS = 1_000_000L;
    private static final int FAILURE = OutcomeBits.CALL | OutcomeBits.FAILED;

    private final TimeWindow window = twoFailuresOfThreeCalls();

    /** A 2 s window (at least 1 call, 70% trips) holding 2 failures of second 0 and 1 success of second 1. */
    static TimeWindow twoFailuresOfThreeCalls() {
        TimeWindow window = new TimeWindow(
                BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.TIME_BASED, 2)
                        .minimumNumberOfCalls(1)
                        .failureRateThreshold(70f)
                        .slowCallRateThreshold(100f)
                        .build(),
                0L);
        window.record(FAILURE, 500 * MS);
        window.record(FAILURE, 500 * MS);
        window.record(OutcomeBits.CALL, 1_500 * MS);
        return window;
    }

    @Actor
    public void recorder() {
        window.record(OutcomeBits.CALL, 2_500 * MS);
    }

    @Actor
    public void reader(III_Result r) {
        int[] counts = window.counts(2_500 * MS);
        r.r1 = counts[0];
        r.r2 = counts[1];
        r.r3 = window.evaluate(2_500 * MS);
    }
}
