package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import io.breaker.State;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.IL_Result;

import static io.breaker.jcstress.Fixtures.DOWN;
import static io.breaker.jcstress.Fixtures.LEASE;
import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static io.breaker.jcstress.Fixtures.granted;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A probe silent for a whole lease fails just as a new caller takes over. Reported before the
 * takeover, its failure reopens (and the new caller is rejected); reported after it, the failure is
 * stale and decides nothing.
 *
 * <p>Result: (actor 1 got a permit, the state afterwards).
 */
@JCStressTest
@Description("A probe replaced after its lease fails: it decides only if it was still the probe")
@Outcome(id = "0, OPEN", expect = ACCEPTABLE, desc = "The failure came first and reopened; actor 1 was rejected.")
@Outcome(
        id = "1, HALF_OPEN",
        expect = ACCEPTABLE,
        desc = "Actor 1 took over first; the failure was stale and counted nowhere.")
@Outcome(
        id = "1, OPEN",
        expect = ACCEPTABLE_INTERESTING,
        desc = "The failure checked its permit before the takeover and "
                + "reopened after it: a probe failure of this HALF_OPEN episode decides, while actor 1's probe, admitted in "
                + "between, runs on and counts nowhere (like any call admitted before a transition). Tolerated: one decision, "
                + "at most one probe in flight.")
@Outcome(expect = FORBIDDEN, desc = "A permit lost, or the breaker left in a state no order of the two explains.")
@org.openjdk.jcstress.annotations.State
public class StaleProbeFailureTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("stale-failure", Fixtures.config().build(), clock);
    private final long silent;

    public StaleProbeFailureTest() {
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
        silent = breaker.tryAcquirePermit();
        Fixtures.expect(breaker, State.HALF_OPEN);
        clock.set(T0 + WAIT + LEASE); // the silent probe's lease is over
    }

    @Actor
    public void actor1(IL_Result r) {
        r.r1 = granted(breaker.tryAcquirePermit());
    }

    @Actor
    public void actor2() {
        breaker.onError(silent, 0L, DOWN);
    }

    @Arbiter
    public void arbiter(IL_Result r) {
        r.r2 = breaker.getState();
    }
}
