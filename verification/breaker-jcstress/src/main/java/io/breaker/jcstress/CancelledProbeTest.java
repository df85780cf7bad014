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
 * A cancelled probe gives its permit back exactly once, even while another caller takes a permit:
 * HALF_OPEN, two probes permitted, one taken. That probe is cancelled ({@code releasePermit}) at
 * the moment another caller takes the second permit. Afterwards exactly one probe (actor 2's) is
 * out, so the arbiter, asking twice, gets exactly one more.
 *
 * <p>(IgnoredProbeTest races the give-back with a caller that finds every permit out.)
 *
 * <p>Result: (actor 2 got a permit, permits the arbiter got in two tries).
 */
@JCStressTest
@Description("A cancelled probe frees its permit once while another caller takes one")
@Outcome(
        id = "1, 1",
        expect = ACCEPTABLE,
        desc = "Actor 2 probes; the cancelled permit is free again: one more for the arbiter.")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "Doubled: three probes out, two permitted.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "Lost: the cancelled permit never came back.")
@Outcome(expect = FORBIDDEN, desc = "Actor 2 was refused a permit that was free.")
@org.openjdk.jcstress.annotations.State
public class CancelledProbeTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker = CircuitBreaker.of(
            "cancelled-probe",
            Fixtures.config().permittedCallsInHalfOpenState(2).build(),
            clock);
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
        r.r2 = granted(breaker.tryAcquirePermit()) + granted(breaker.tryAcquirePermit());
    }
}
