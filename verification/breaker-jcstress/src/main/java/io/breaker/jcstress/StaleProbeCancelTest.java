package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import io.breaker.State;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.II_Result;

import static io.breaker.jcstress.Fixtures.LEASE;
import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static io.breaker.jcstress.Fixtures.granted;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A stale cancel never frees the permit of the probe that replaced it: HALF_OPEN, one probe
 * permitted, taken, and silent for a whole lease. A new caller takes over (a new probe generation)
 * while the silent probe is finally cancelled. If the cancel comes first it frees the permit the
 * new caller then takes; if it comes after the takeover it is stale and frees nothing. Either way
 * exactly one probe holds the permit afterwards, so the arbiter is rejected.
 *
 * <p>Result: (actor 1 got a permit, the arbiter got a permit).
 */
@JCStressTest
@Description("A probe replaced after its lease: its late cancel frees nothing")
@Outcome(
        id = "1, 0",
        expect = ACCEPTABLE,
        desc = "Actor 1 probes (by takeover or after the cancel); the arbiter is rejected.")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Doubled: the stale cancel freed the new probe's permit.")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "Lost: the lease elapsed but actor 1 could not probe.")
@org.openjdk.jcstress.annotations.State
public class StaleProbeCancelTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("stale-cancel", Fixtures.config().build(), clock);
    private final long silent;

    public StaleProbeCancelTest() {
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
        silent = breaker.tryAcquirePermit();
        Fixtures.expect(breaker, State.HALF_OPEN);
        clock.set(T0 + WAIT + LEASE); // the silent probe's lease is over
    }

    @Actor
    public void actor1(II_Result r) {
        r.r1 = granted(breaker.tryAcquirePermit());
    }

    @Actor
    public void actor2() {
        breaker.releasePermit(silent);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = granted(breaker.tryAcquirePermit());
    }
}
