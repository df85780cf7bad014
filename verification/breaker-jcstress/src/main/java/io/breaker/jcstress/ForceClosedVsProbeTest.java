package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.LL_Result;

import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A forced state is never overwritten by an automatic transition that read the state before it:
 * the wait has elapsed and a caller starts probing (OPEN -> HALF_OPEN) while an operator forces
 * the breaker CLOSED. Whatever the order, the breaker ends FORCED_CLOSED.
 *
 * <p>Result: (the state afterwards, the transitions heard, sorted).
 */
@JCStressTest
@Description("forceClosed() racing OPEN -> HALF_OPEN: FORCED_CLOSED stays, every transition told once")
@Outcome(
        id = "FORCED_CLOSED, OPEN>FORCED_CLOSED",
        expect = ACCEPTABLE,
        desc = "Forced first; the caller passed in FORCED_CLOSED.")
@Outcome(
        id = "FORCED_CLOSED, HALF_OPEN>FORCED_CLOSED OPEN>HALF_OPEN",
        expect = ACCEPTABLE,
        desc = "Probing started, then forced.")
@Outcome(id = "HALF_OPEN, .*", expect = FORBIDDEN, desc = "OPEN -> HALF_OPEN overwrote the operator's FORCED_CLOSED.")
@Outcome(expect = FORBIDDEN, desc = "A transition told twice, from a state the breaker had left, or not at all.")
@org.openjdk.jcstress.annotations.State
public class ForceClosedVsProbeTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("force-closed-vs-probe", Fixtures.config().build(), clock);
    private final TransitionLog log = new TransitionLog();

    public ForceClosedVsProbeTest() {
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
        breaker.addListener(log);
    }

    @Actor
    public void actor1() {
        breaker.tryAcquirePermit();
    }

    @Actor
    public void actor2() {
        breaker.forceClosed();
    }

    @Arbiter
    public void arbiter(LL_Result r) {
        r.r1 = breaker.getState();
        r.r2 = log.sorted();
    }
}
