package io.breaker.jcstress;

import io.breaker.BreakerListener;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static io.breaker.jcstress.Fixtures.DOWN;
import static io.breaker.jcstress.Fixtures.SECOND;
import static io.breaker.jcstress.Fixtures.T0;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Exactly one OPEN transition per trip, and the first trip's probe time is never moved.
 *
 * <p>Two calls admitted in CLOSED fail at once; each failure alone brings the window to its minimum
 * of 2 calls at 100% failures, so both may find the threshold reached and try to trip. Actor 1's
 * call ends at T0, actor 2's one second later (an {@link ActorClock}), so the probe time says whose
 * trip fixed it. Whoever wins the CAS trips; the other must neither trip again nor move the probe
 * time.
 *
 * <p>Result: (CLOSED->OPEN transitions heard, second of the trip the listener heard (0 = actor 1's,
 * 1 = actor 2's; the listener runs on the winner's thread and reads its time), seconds of wait left
 * seen at T0 + 2 s).
 */
@JCStressTest
@Description("Two failures race to trip: one OPEN transition, and the probe time is the winner's")
@Outcome(id = "1, 0, 8", expect = ACCEPTABLE, desc = "Actor 1's trip (at T0) won: probe at T0 + 10 s, 8 s left.")
@Outcome(id = "1, 1, 9", expect = ACCEPTABLE, desc = "Actor 2's trip (at T0 + 1 s) won: probe at T0 + 11 s, 9 s left.")
@Outcome(
        id = "2, .*",
        expect = FORBIDDEN,
        desc = "Tripped twice: a second OPEN replaced the first (and its probe time).")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "Never tripped, though 2 of 2 calls failed.")
@Outcome(expect = FORBIDDEN, desc = "The probe time is not the one of the trip that was told: it was moved.")
@org.openjdk.jcstress.annotations.State
public class TripOnceTest {

    private final ActorClock clock = new ActorClock();
    private final CircuitBreaker breaker =
            CircuitBreaker.of("trip-once", Fixtures.config().build(), clock);
    private final AtomicInteger opens = new AtomicInteger();
    private volatile long trippedAt = -1;
    private final long first;
    private final long second;

    public TripOnceTest() {
        breaker.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                if (transition.from() == State.CLOSED && transition.to() == State.OPEN) {
                    opens.incrementAndGet();
                    trippedAt = clock.nanoTime();
                }
            }

            @Override
            public boolean wantsCallDurations() {
                return false;
            }
        });
        // A CLOSED permit is one volatile read: no clock.
        first = breaker.tryAcquirePermit();
        second = breaker.tryAcquirePermit();
    }

    @Actor
    public void actor1() {
        ActorClock.setForThisThread(T0);
        breaker.onError(first, 0L, DOWN);
    }

    @Actor
    public void actor2() {
        ActorClock.setForThisThread(T0 + SECOND);
        breaker.onError(second, 0L, DOWN);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        ActorClock.setForThisThread(T0 + 2 * SECOND);
        r.r1 = opens.get();
        r.r2 = trippedAt < 0 ? -1 : (int) ((trippedAt - T0) / SECOND);
        long left = breaker.getRemainingWaitNanos();
        r.r3 = left < 0 ? -1 : (int) (left / SECOND);
    }
}
