package io.breaker.test.assertj;

import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import org.assertj.core.api.AbstractAssert;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Assertions on a sequence of transitions, in the order they happened: those a test caused
 * ({@link BreakerAssertions#assertThatTransitions()}) or a scenario's.
 */
public class TransitionsAssert extends AbstractAssert<TransitionsAssert, List<Transition>> {

    protected TransitionsAssert(List<Transition> actual) {
        super(actual, TransitionsAssert.class);
    }

    /** Keeps the transitions of one breaker. */
    public TransitionsAssert ofBreaker(String name) {
        isNotNull();
        return new TransitionsAssert(ofBreaker(actual, name));
    }

    /** Exactly these transitions, in this order. */
    public TransitionsAssert containsExactly(Step... expected) {
        isNotNull();
        List<Step> steps = actual.stream().map(Step::of).toList();
        if (!steps.equals(Arrays.asList(expected))) {
            failWithMessage(
                    "Expected the transitions%n  %s%nbut they were%n  %s",
                    Arrays.stream(expected).map(Step::toString).collect(Collectors.joining(", ")), describe(actual));
        }
        return this;
    }

    /** No transition at all. */
    public TransitionsAssert isEmpty() {
        return containsExactly();
    }

    static List<Transition> ofBreaker(List<Transition> transitions, String name) {
        return transitions.stream()
                .filter(transition -> transition.breaker().equals(name))
                .toList();
    }

    static String describe(List<Transition> transitions) {
        return transitions.isEmpty()
                ? "none"
                : transitions.stream().map(Step::of).map(Step::toString).collect(Collectors.joining(", "));
    }

    /**
     * One expected transition: a breaker, its state before and after, and the cause.
     *
     * @param breaker the breaker's name
     * @param from    the state before
     * @param to      the state after
     * @param cause   why it changed
     */
    public record Step(String breaker, State from, State to, TransitionCause cause) {

        static Step of(Transition transition) {
            return new Step(transition.breaker(), transition.from(), transition.to(), transition.cause());
        }

        @Override
        public String toString() {
            return breaker + " " + from + "->" + to + " (" + cause + ")";
        }
    }
}
