package io.breaker;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two threads count a rejection each on a fresh counter of one slot, so that they race to claim
 * it: the winner counts in the slot, the other in the shared adder. The second reads the sum right
 * after its own increment, while the first may still be counting: it sees its own, and maybe the
 * other's. Once both are done, the sum is exactly 2.
 *
 * <p>Result: (sum read by the second thread after its increment, sum read after both).
 */
@JCStressTest
@Description("RejectionCounter: concurrent rejections are each counted once")
@Outcome(
        id = {"1, 2", "2, 2"},
        expect = ACCEPTABLE,
        desc = "The reader saw its own, or both; the total is exact.")
@Outcome(expect = FORBIDDEN, desc = "A rejection lost or counted twice.")
@org.openjdk.jcstress.annotations.State
public class RejectionCounterTest {

    private final RejectionCounter counter = new RejectionCounter(1);

    @Actor
    public void first() {
        counter.increment();
    }

    @Actor
    public void second(JJ_Result r) {
        counter.increment();
        r.r1 = counter.sum();
    }

    @Arbiter
    public void after(JJ_Result r) {
        r.r2 = counter.sum();
    }
}
