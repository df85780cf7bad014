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
import static io.breaker.jcstress.Fixtures.WAIT;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Listeners hear each transition exactly once, in order: the wait has elapsed and two callers
 * arrive; the one that gets the probe reports it (actor 1 a success, actor 2 a failure), the other
 * is rejected or, once CLOSED, passes and fails once (below the minimum of 2 calls: no trip). One
 * thread may win OPEN -> HALF_OPEN and the other take the probe and decide it, so the two
 * transitions can be won, and told, on different threads.
 *
 * <p>Result: (the transitions in the order the listener heard them, the state afterwards).
 */
@JCStressTest
@Description("Two callers race the probe: the listener hears OPEN -> HALF_OPEN, then the decision, once each")
@Outcome(id = "OPEN>HALF_OPEN HALF_OPEN>CLOSED, CLOSED", expect = ACCEPTABLE, desc = "Actor 1 probed and closed.")
@Outcome(id = "OPEN>HALF_OPEN HALF_OPEN>OPEN, OPEN", expect = ACCEPTABLE, desc = "Actor 2 probed and reopened.")
@Outcome(expect = FORBIDDEN, desc = "A transition told twice, not at all, or out of order.")
@org.openjdk.jcstress.annotations.State
public class ListenerOrderTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("listener-order", Fixtures.config().build(), clock);
    private final TransitionLog log = new TransitionLog();

    public ListenerOrderTest() {
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
        breaker.addListener(log);
    }

    @Actor
    public void actor1() {
        long permit = breaker.tryAcquirePermit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            breaker.onSuccess(permit, 0L);
        }
    }

    @Actor
    public void actor2() {
        long permit = breaker.tryAcquirePermit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            breaker.onError(permit, 0L, DOWN);
        }
    }

    @Arbiter
    public void arbiter(LL_Result r) {
        r.r1 = log.inOrder();
        r.r2 = breaker.getState();
    }
}
