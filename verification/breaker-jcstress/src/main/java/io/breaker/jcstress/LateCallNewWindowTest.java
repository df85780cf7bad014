package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import io.breaker.State;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.LI_Result;

import static io.breaker.jcstress.Fixtures.DOWN;
import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A call of an earlier CLOSED episode never lands in a later window: a call admitted before the
 * trip fails only after the probe has closed the breaker again, at the same moment as a call of the
 * new CLOSED episode fails. The new window (at least 2 calls, 50%) must hold one call: the late
 * failure would make it two failures of two and trip it.
 *
 * <p>Result: (the state afterwards, calls in the window).
 */
@JCStressTest
@Description("A failure admitted before the trip, reported after the reclose, stays out of the new window")
@Outcome(
        id = "CLOSED, 1",
        expect = ACCEPTABLE,
        desc = "Only the new episode's failure counts: 1 call, below the minimum.")
@Outcome(id = "OPEN, .*", expect = FORBIDDEN, desc = "The late failure counted in the new window and tripped it.")
@Outcome(expect = FORBIDDEN, desc = "The new window holds a call that is not its own, or lost one.")
@org.openjdk.jcstress.annotations.State
public class LateCallNewWindowTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("late-call-new-window", Fixtures.config().build(), clock);
    private final long admittedBeforeTrip;

    public LateCallNewWindowTest() {
        admittedBeforeTrip = breaker.tryAcquirePermit();
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
        long probe = breaker.tryAcquirePermit();
        breaker.onSuccess(probe, 0L);
        Fixtures.expect(breaker, State.CLOSED);
    }

    @Actor
    public void actor1() {
        breaker.onError(admittedBeforeTrip, 0L, DOWN);
    }

    @Actor
    public void actor2() {
        long permit = breaker.tryAcquirePermit();
        breaker.onError(permit, 0L, DOWN);
    }

    @Arbiter
    public void arbiter(LI_Result r) {
        r.r1 = breaker.getState();
        r.r2 = breaker.getMetrics().calls();
    }
}
