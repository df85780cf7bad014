package io.breaker;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;

/**
 * One change of a breaker's state, as told to {@link BreakerListener}s. A move to {@link State#OPEN}
 * carries how long the breaker waits from then on and why, as decided by the transition itself (a
 * listener told later, after further transitions, still reads this one's).
 *
 * @param breaker         the breaker's name
 * @param from            the state before
 * @param to              the state after
 * @param cause           why it changed
 * @param at              wall-clock time of the change
 * @param metrics         the breaker's numbers at the moment of the change
 * @param lastFailureType class name of the last exception (or result) recorded as a failure, or {@code null}
 * @param waitDuration    into {@link State#OPEN}: how long until a probe may go through (for a shared
 *                        breaker, what is left of the fleet's wait when this instance learnt of it);
 *                        otherwise {@code null}
 * @param waitReason      into {@link State#OPEN}: why the wait is that long; otherwise {@code null}
 */
public record Transition(
        String breaker,
        State from,
        State to,
        TransitionCause cause,
        Instant at,
        BreakerMetrics metrics,
        @Nullable String lastFailureType,
        @Nullable Duration waitDuration,
        @Nullable WaitReason waitReason) {

    /** A transition that carries no wait (one not into OPEN). */
    public Transition(
            String breaker,
            State from,
            State to,
            TransitionCause cause,
            Instant at,
            BreakerMetrics metrics,
            @Nullable String lastFailureType) {
        this(breaker, from, to, cause, at, metrics, lastFailureType, null, null);
    }
}
