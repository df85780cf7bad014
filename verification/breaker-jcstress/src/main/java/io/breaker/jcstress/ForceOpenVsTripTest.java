package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.LL_Result;

import static io.breaker.jcstress.Fixtures.DOWN;
import static io.breaker.jcstress.Fixtures.T0;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A forced state is never overwritten by an automatic transition that read the state before it:
 * an operator forces the breaker OPEN while the failure that reaches the threshold trips it. The
 * trip either happens first (and the operator then forces OPEN -> FORCED_OPEN) or finds its CLOSED
 * phase gone; the operator's state stays.
 *
 * <p>Result: (the state afterwards, the transitions heard, sorted: two notifications on two
 * threads may be told in either order, which ListenerOrderTest looks at).
 */
@JCStressTest
@Description("forceOpen() racing a trip: FORCED_OPEN stays, every transition told once")
@Outcome(
        id = "FORCED_OPEN, CLOSED>FORCED_OPEN",
        expect = ACCEPTABLE,
        desc = "Forced first; the trip found its CLOSED phase gone.")
@Outcome(id = "FORCED_OPEN, CLOSED>OPEN OPEN>FORCED_OPEN", expect = ACCEPTABLE, desc = "Tripped first, then forced.")
@Outcome(id = "OPEN, .*", expect = FORBIDDEN, desc = "The trip overwrote the operator's FORCED_OPEN.")
@Outcome(expect = FORBIDDEN, desc = "A transition told twice, from a state the breaker had left, or not at all.")
@org.openjdk.jcstress.annotations.State
public class ForceOpenVsTripTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("force-open-vs-trip", Fixtures.config().build(), clock);
    private final TransitionLog log = new TransitionLog();
    private final long threshold;

    public ForceOpenVsTripTest() {
        long first = breaker.tryAcquirePermit();
        threshold = breaker.tryAcquirePermit();
        breaker.onError(first, 0L, DOWN); // 1 call: below the minimum of 2
        breaker.addListener(log);
    }

    @Actor
    public void actor1() {
        breaker.onError(threshold, 0L, DOWN); // 2 of 2 failed: trips
    }

    @Actor
    public void actor2() {
        breaker.forceOpen();
    }

    @Arbiter
    public void arbiter(LL_Result r) {
        r.r1 = breaker.getState();
        r.r2 = log.sorted();
    }
}
