package io.breaker.jcstress;

import io.breaker.CircuitBreaker;
import io.breaker.State;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.III_Result;

import static io.breaker.jcstress.Fixtures.NOT_FOUND;
import static io.breaker.jcstress.Fixtures.T0;
import static io.breaker.jcstress.Fixtures.WAIT;
import static io.breaker.jcstress.Fixtures.granted;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An ignored probe (its call ended with an exception configured as ignored, reported with
 * {@code onError}) gives its permit back exactly once and decides nothing: HALF_OPEN, one probe
 * permitted and taken; the probe's ignored error races another caller's request; then the
 * arbiter asks too.
 *
 * <p>Result: (actor 2 got a permit, the arbiter got a permit, the breaker is still HALF_OPEN (1) or not (0)).
 */
@JCStressTest
@Description("An ignored probe frees its permit once and decides nothing")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The ignored error came first: actor 2 took the freed permit.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Actor 2 was rejected first; the arbiter took the freed permit.")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "Doubled: two probes hold the one permit.")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Lost: the ignored probe's permit never came back.")
@Outcome(expect = FORBIDDEN, desc = "The ignored outcome decided the probe (the breaker left HALF_OPEN).")
@org.openjdk.jcstress.annotations.State
public class IgnoredProbeTest {

    private final TestClock clock = new TestClock(T0);
    private final CircuitBreaker breaker =
            CircuitBreaker.of("ignored-probe", Fixtures.config().build(), clock);
    private final long probe;

    public IgnoredProbeTest() {
        Fixtures.trip(breaker);
        clock.set(T0 + WAIT);
        probe = breaker.tryAcquirePermit();
        Fixtures.expect(breaker, State.HALF_OPEN);
    }

    @Actor
    public void actor1() {
        if (breaker.onError(probe, 0L, NOT_FOUND)) {
            throw new IllegalStateException("NotFound is configured as ignored");
        }
    }

    @Actor
    public void actor2(III_Result r) {
        r.r1 = granted(breaker.tryAcquirePermit());
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = granted(breaker.tryAcquirePermit());
        r.r3 = breaker.getState() == State.HALF_OPEN ? 1 : 0;
    }
}
