package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import io.breaker.State;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.II_Result;

import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static io.breaker.jcstress.Fixtures.granted;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A cancelled probe gives its permit back exactly once: HALF_OPEN, one probe permitted and taken;
 * the probe is cancelled ({@code releasePermit}) while another caller asks for a permit. Then the
 * arbiter asks too. Of the two askers exactly one gets the freed permit.
 *
 * <p>Result: (actor 2 got a permit, the arbiter got a permit).
 */
@JCStressTest
@Description("A cancelled probe frees its permit once, for exactly one later caller")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The cancel came first: actor 2 took the freed permit.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Actor 2 came first and was rejected; the arbiter took the freed permit.")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Doubled: two probes hold the one permit.")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Lost: the cancelled permit never came back.")
@org.openjdk.jcstress.annotations.State
public class CancelledProbeTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker = CircuitBreaker.of("cancelled-probe", Fixtures.config().build(), clock);
    private final long probe;

    public CancelledProbeTest() {
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
        probe = breaker.tryAcquirePermit();
        Fixtures.expect(breaker, State.HALF_OPEN);
    }

    @Actor
    public void actor1() {
        breaker.releasePermit(probe);
    }

    @Actor
    public void actor2(II_Result r) {
        r.r1 = granted(breaker.tryAcquirePermit());
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = granted(breaker.tryAcquirePermit());
    }
}
