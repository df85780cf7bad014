package io.breaker.spring.actuate;

import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One past state change of a breaker, as the {@code breakers} endpoint shows it.
 *
 * @param from      the state before
 * @param to        the state after
 * @param cause     why it changed ({@code OPERATOR} for a force made through the endpoint or in code)
 * @param at        when
 * @param principal for a force made through the endpoint by an authenticated user, who made it;
 *                  otherwise {@code null}
 */
public record TransitionDescriptor(
        State from,
        State to,
        TransitionCause cause,
        Instant at,
        @Nullable String principal) {

    static TransitionDescriptor of(Transition transition) {
        return of(transition, null);
    }

    static TransitionDescriptor of(Transition transition, @Nullable String principal) {
        return new TransitionDescriptor(
                transition.from(), transition.to(), transition.cause(), transition.at(), principal);
    }
}
