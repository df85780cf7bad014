package io.breaker.test.assertj;

import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import io.breaker.test.BreakerScenario;
import io.breaker.test.Breakers;

import java.util.List;

/**
 * Entry points of the AssertJ assertions, to import statically next to AssertJ's own
 * {@code assertThat} (the more specific overload wins):
 *
 * <pre>{@code
 * assertThat(Breakers.breaker("wholesaler")).isOpen().hasFailureRate(50.0).rejected(3);
 * assertThatTransitions().containsExactly(
 *         transition("wholesaler", CLOSED, OPEN, FAILURE_RATE),
 *         transition("wholesaler", OPEN, HALF_OPEN, WAIT_ELAPSED));
 * }</pre>
 */
public final class BreakerAssertions {

    private BreakerAssertions() {}

    /** Assertions on {@code breaker}. */
    public static BreakerAssert assertThat(CircuitBreaker breaker) {
        return new BreakerAssert(breaker);
    }

    /** Assertions on the breaker of a scenario. */
    public static BreakerAssert assertThat(BreakerScenario scenario) {
        return new BreakerAssert(scenario.breaker());
    }

    /** Assertions on the named breaker of the running test ({@link Breakers#breaker(String)}). */
    public static BreakerAssert assertThatBreaker(String name) {
        return new BreakerAssert(Breakers.breaker(name));
    }

    /** Assertions on every transition the running test caused, in order ({@link Breakers#transitions()}). */
    public static TransitionsAssert assertThatTransitions() {
        return new TransitionsAssert(Breakers.transitions());
    }

    /** Assertions on a scenario's transitions, in order. */
    public static TransitionsAssert assertThatTransitions(BreakerScenario scenario) {
        return new TransitionsAssert(scenario.transitions());
    }

    /** Assertions on these transitions, in order. */
    public static TransitionsAssert assertThatTransitions(List<Transition> transitions) {
        return new TransitionsAssert(transitions);
    }

    /** An expected transition, for {@link TransitionsAssert#containsExactly}. */
    public static TransitionsAssert.Step transition(String breaker, State from, State to, TransitionCause cause) {
        return new TransitionsAssert.Step(breaker, from, to, cause);
    }
}
