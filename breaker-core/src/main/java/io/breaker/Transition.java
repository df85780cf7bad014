package io.breaker;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One change of a breaker's state, as told to {@link BreakerListener}s.
 *
 * @param breaker         the breaker's name
 * @param from            the state before
 * @param to              the state after
 * @param cause           why it changed
 * @param at              wall-clock time of the change
 * @param metrics         the breaker's numbers at the moment of the change
 * @param lastFailureType class name of the last exception (or result) recorded as a failure, or {@code null}
 */
public record Transition(
        String breaker,
        State from,
        State to,
        TransitionCause cause,
        Instant at,
        BreakerMetrics metrics,
        @Nullable String lastFailureType) {}
