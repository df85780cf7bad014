package io.breaker.test;

import io.breaker.BreakerListener;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One breaker fed a sequence of call outcomes, one call after the other, on a clock that moves only
 * when the scenario says: a call that took a while advances the clock by its duration, and
 * {@link #advance(Duration)} lets time pass between calls. A call the breaker rejects does not run
 * and is counted in {@link #rejected()}. Made by {@link BreakerSettings#scenario(String)}, or
 * {@link #of(CircuitBreaker, BreakerClock)} for a breaker built on a {@link BreakerClock}.
 */
public final class BreakerScenario {

    /** The type a {@link #fail()} records: a failure whatever the exception rules say. */
    static final String FAILURE_TYPE = "io.breaker.test.BreakerScenario.failure";

    private final CircuitBreaker breaker;
    private final BreakerClock clock;
    private final List<Transition> transitions = new CopyOnWriteArrayList<>();
    private long rejected;

    BreakerScenario(CircuitBreaker breaker, BreakerClock clock) {
        this.breaker = breaker;
        this.clock = clock;
        breaker.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                transitions.add(transition);
            }

            @Override
            public boolean wantsCallDurations() {
                return false;
            }
        });
    }

    /** A scenario of {@code breaker}, which must run on {@code clock}. */
    public static BreakerScenario of(CircuitBreaker breaker, BreakerClock clock) {
        return new BreakerScenario(Objects.requireNonNull(breaker, "breaker"), Objects.requireNonNull(clock, "clock"));
    }

    /** {@code calls} instant successful calls. */
    public BreakerScenario succeed(int calls) {
        for (int i = 0; i < calls; i++) {
            succeedAfter(Duration.ZERO);
        }
        return this;
    }

    /** One instant successful call. */
    public BreakerScenario succeed() {
        return succeed(1);
    }

    /** One successful call that took {@code took}: a slow call if that reaches the slow-call threshold. */
    public BreakerScenario succeedAfter(Duration took) {
        long permit = permit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            clock.advance(took);
            breaker.onSuccess(permit, took.toNanos());
        }
        return this;
    }

    /** A slow success: the same as {@link #succeedAfter(Duration)}. */
    public BreakerScenario slow(Duration took) {
        return succeedAfter(took);
    }

    /** {@code calls} instant failed calls, failures whatever the exception rules say. */
    public BreakerScenario fail(int calls) {
        for (int i = 0; i < calls; i++) {
            failAfter(Duration.ZERO);
        }
        return this;
    }

    /** One instant failed call. */
    public BreakerScenario fail() {
        return fail(1);
    }

    /** One failed call that took {@code took}. */
    public BreakerScenario failAfter(Duration took) {
        long permit = permit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            clock.advance(took);
            breaker.onFailedResult(permit, took.toNanos(), FAILURE_TYPE);
        }
        return this;
    }

    /**
     * One instant call that threw {@code error}: a failure or ignored, as the breaker's
     * {@code record-exceptions} and {@code ignore-exceptions} decide.
     */
    public BreakerScenario raise(Throwable error) {
        return raiseAfter(error, Duration.ZERO);
    }

    /** One call that threw {@code error} after {@code took}; see {@link #raise(Throwable)}. */
    public BreakerScenario raiseAfter(Throwable error, Duration took) {
        long permit = permit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            clock.advance(took);
            breaker.onError(permit, took.toNanos(), error);
        }
        return this;
    }

    /** Lets {@code duration} pass without any call. */
    public BreakerScenario advance(Duration duration) {
        clock.advance(duration);
        return this;
    }

    /** The breaker's state now. */
    public State state() {
        return breaker.getState();
    }

    /** The calls of this scenario the breaker rejected. */
    public long rejected() {
        return rejected;
    }

    /** The breaker's transitions since the scenario began, in order. */
    public List<Transition> transitions() {
        return List.copyOf(transitions);
    }

    /** The breaker, for assertions. */
    public CircuitBreaker breaker() {
        return breaker;
    }

    /** The scenario's clock. */
    public BreakerClock clock() {
        return clock;
    }

    private long permit() {
        long permit = breaker.tryAcquirePermit();
        if (permit == CircuitBreaker.NO_PERMIT) {
            rejected++;
        }
        return permit;
    }
}
