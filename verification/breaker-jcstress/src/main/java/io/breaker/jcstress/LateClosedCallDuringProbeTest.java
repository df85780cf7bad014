package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.IL_Result;

import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static io.breaker.jcstress.Fixtures.granted;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A call admitted in one episode never decides another: a slow call admitted in CLOSED, before the
 * trip, succeeds just as the first caller after the wait becomes the probe. Whether the success is
 * reported in OPEN, during the OPEN -> HALF_OPEN transition or while the probe runs, it must not
 * close the breaker: only the probe decides.
 *
 * <p>Result: (actor 1 got the probe permit, the state afterwards).
 */
@JCStressTest
@Description("A success of a call admitted in CLOSED, reported while the probe starts, decides nothing")
@Outcome(id = "1, HALF_OPEN", expect = ACCEPTABLE, desc = "Actor 1 probes; the late success counted nowhere.")
@Outcome(
        id = "1, CLOSED",
        expect = FORBIDDEN,
        desc = "The CLOSED call's success closed the breaker: stale evidence decided the probe.")
@Outcome(expect = FORBIDDEN, desc = "The probe was lost or something else decided.")
@org.openjdk.jcstress.annotations.State
public class LateClosedCallDuringProbeTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("late-closed-call", Fixtures.config().build(), clock);
    private final long admittedInClosed;

    public LateClosedCallDuringProbeTest() {
        admittedInClosed = breaker.tryAcquirePermit();
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
    }

    @Actor
    public void actor1(IL_Result r) {
        r.r1 = granted(breaker.tryAcquirePermit());
    }

    @Actor
    public void actor2() {
        breaker.onSuccess(admittedInClosed, 0L);
    }

    @Arbiter
    public void arbiter(IL_Result r) {
        r.r2 = breaker.getState();
    }
}
