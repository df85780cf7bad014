package io.breaker.test.assertj;

import io.breaker.BreakerMetrics;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.test.Breakers;
import org.assertj.core.api.AbstractAssert;

import java.util.List;

/**
 * Assertions on one {@link CircuitBreaker}: its state, its window's rates, the calls it rejected and
 * the transitions it made. Rejections and transitions count from the start of the test when it runs
 * with {@link io.breaker.test.BreakerExtension}, otherwise since the breaker was created (rejections)
 * or are not known (transitions).
 */
public class BreakerAssert extends AbstractAssert<BreakerAssert, CircuitBreaker> {

    /** Rates are compared to within this many percentage points (a rate is a float). */
    private static final double RATE_TOLERANCE = 0.01;

    protected BreakerAssert(CircuitBreaker actual) {
        super(actual, BreakerAssert.class);
    }

    /** The breaker is in {@code expected}. */
    public BreakerAssert hasState(State expected) {
        isNotNull();
        if (actual.getState() != expected) {
            failWithMessage(
                    "Expected breaker '%s' to be %s but it was %s (%s)",
                    actual.getName(), expected, actual.getState(), actual.getMetrics());
        }
        return this;
    }

    /** The breaker is CLOSED. */
    public BreakerAssert isClosed() {
        return hasState(State.CLOSED);
    }

    /** The breaker is OPEN. */
    public BreakerAssert isOpen() {
        return hasState(State.OPEN);
    }

    /** The breaker is HALF_OPEN. */
    public BreakerAssert isHalfOpen() {
        return hasState(State.HALF_OPEN);
    }

    /** The breaker is FORCED_OPEN. */
    public BreakerAssert isForcedOpen() {
        return hasState(State.FORCED_OPEN);
    }

    /** The breaker is FORCED_CLOSED. */
    public BreakerAssert isForcedClosed() {
        return hasState(State.FORCED_CLOSED);
    }

    /** The window's failure rate, in percent; -1 while fewer calls than the minimum are in the window. */
    public BreakerAssert hasFailureRate(double expected) {
        isNotNull();
        BreakerMetrics metrics = actual.getMetrics();
        if (Math.abs(metrics.failureRate() - expected) > RATE_TOLERANCE) {
            failWithMessage(
                    "Expected breaker '%s' to have a failure rate of %s%% but it was %s%% (%s)",
                    actual.getName(), expected, metrics.failureRate(), metrics);
        }
        return this;
    }

    /** The window's slow-call rate, in percent; -1 while fewer calls than the minimum are in the window. */
    public BreakerAssert hasSlowCallRate(double expected) {
        isNotNull();
        BreakerMetrics metrics = actual.getMetrics();
        if (Math.abs(metrics.slowCallRate() - expected) > RATE_TOLERANCE) {
            failWithMessage(
                    "Expected breaker '%s' to have a slow-call rate of %s%% but it was %s%% (%s)",
                    actual.getName(), expected, metrics.slowCallRate(), metrics);
        }
        return this;
    }

    /** The number of failed calls in the window. */
    public BreakerAssert hasFailedCalls(int expected) {
        isNotNull();
        BreakerMetrics metrics = actual.getMetrics();
        if (metrics.failedCalls() != expected) {
            failWithMessage(
                    "Expected breaker '%s' to hold %s failed calls in its window but it held %s (%s)",
                    actual.getName(), expected, metrics.failedCalls(), metrics);
        }
        return this;
    }

    /** The breaker rejected exactly {@code expected} calls since the test began. */
    public BreakerAssert rejected(long expected) {
        isNotNull();
        long rejected = rejectedCalls();
        if (rejected != expected) {
            failWithMessage(
                    "Expected breaker '%s' to have rejected %s calls but it rejected %s",
                    actual.getName(), expected, rejected);
        }
        return this;
    }

    /** The breaker made a transition from {@code from} to {@code to} since the test began. */
    public BreakerAssert hasTransitioned(State from, State to) {
        isNotNull();
        List<Transition> own = TransitionsAssert.ofBreaker(Breakers.transitions(), actual.getName());
        if (own.stream().noneMatch(transition -> transition.from() == from && transition.to() == to)) {
            failWithMessage(
                    "Expected breaker '%s' to have gone from %s to %s but its transitions were %s",
                    actual.getName(), from, to, TransitionsAssert.describe(own));
        }
        return this;
    }

    /** The breaker made no transition since the test began. */
    public BreakerAssert hasNotTransitioned() {
        isNotNull();
        List<Transition> own = TransitionsAssert.ofBreaker(Breakers.transitions(), actual.getName());
        if (!own.isEmpty()) {
            failWithMessage(
                    "Expected breaker '%s' to have made no transition but it made %s",
                    actual.getName(), TransitionsAssert.describe(own));
        }
        return this;
    }

    private long rejectedCalls() {
        try {
            return Breakers.rejected(actual);
        } catch (IllegalStateException noTest) {
            return actual.getMetrics().notPermittedCalls();
        }
    }
}
