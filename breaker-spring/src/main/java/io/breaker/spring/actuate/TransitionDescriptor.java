package io.breaker.spring.actuate;

import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;

/**
 * One past state change of a breaker, as the {@code breakers} endpoint shows it.
 *
 * @param from  the state before
 * @param to    the state after
 * @param cause why it changed ({@code OPERATOR} for a change made through the endpoint or in code)
 * @param at    when, as an ISO-8601 instant ({@code 2026-11-29T17:02:11.532Z})
 */
public record TransitionDescriptor(State from, State to, TransitionCause cause, String at) {

    static TransitionDescriptor of(Transition transition) {
        return new TransitionDescriptor(transition.from(), transition.to(), transition.cause(),
                transition.at().toString());
    }
}
