package io.breaker.spring.actuate;

import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.Map;

/**
 * One past change of a breaker, as the {@code breakers} endpoint shows it: a state change, or an
 * operator's change of its settings (then {@code from} and {@code to} are the state it was in, and
 * {@code settings} says what changed).
 *
 * @param from      the state before
 * @param to        the state after
 * @param cause     why it changed ({@code OPERATOR} for a change made through the endpoint or in code)
 * @param at        when
 * @param principal for a settings change, who made it ({@code null} when not authenticated); {@code null}
 *                  for a state change
 * @param settings  for a settings change, each property changed (YAML name) with its new value, or
 *                  {@code null} for a property returned to its configured value; {@code null} for a
 *                  state change
 */
public record TransitionDescriptor(
        State from,
        State to,
        TransitionCause cause,
        Instant at,
        @Nullable String principal,
        @Nullable Map<String, @Nullable Object> settings) {

    static TransitionDescriptor of(Transition transition) {
        return new TransitionDescriptor(
                transition.from(), transition.to(), transition.cause(), transition.at(), null, null);
    }
}
