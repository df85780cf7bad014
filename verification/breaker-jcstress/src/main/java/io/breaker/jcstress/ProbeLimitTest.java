package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import io.breaker.State;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.III_Result;

import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static io.breaker.jcstress.Fixtures.granted;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Never more probes in flight than permitted, and no probe lost: the wait has elapsed, one probe is
 * permitted, and two callers arrive at once. Both race the OPEN -> HALF_OPEN transition and then
 * the probe permit; exactly one may call the dependency.
 *
 * <p>Result: (actor 1 got a permit, actor 2 got a permit, OPEN->HALF_OPEN transitions heard).
 */
@JCStressTest
@Description("Two callers after the wait, one probe permitted: exactly one probes")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "Actor 1 probes, actor 2 is rejected.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Actor 2 probes, actor 1 is rejected.")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "Two probes in flight, one permitted.")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "The wait elapsed but nobody may probe: a permit was lost.")
@Outcome(expect = FORBIDDEN, desc = "OPEN -> HALF_OPEN told other than once.")
@org.openjdk.jcstress.annotations.State
public class ProbeLimitTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("probe-limit", Fixtures.config().build(), clock);
    private final TransitionLog log = new TransitionLog();

    public ProbeLimitTest() {
        Fixtures.trip(breaker);
        breaker.addListener(log);
        clock.set(T0 + WAIT);
    }

    @Actor
    public void actor1(III_Result r) {
        r.r1 = granted(breaker.tryAcquirePermit());
    }

    @Actor
    public void actor2(III_Result r) {
        r.r2 = granted(breaker.tryAcquirePermit());
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = log.count(State.OPEN, State.HALF_OPEN);
    }
}
