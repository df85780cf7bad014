package io.breaker.spi;

import io.breaker.State;
import io.breaker.TransitionCause;

/**
 * A fleet's state of one breaker as a {@link SharedState} reports it to one instance, seen from that
 * instance: a breaker another instance is probing reads {@link State#OPEN} until that probe's lease
 * runs out.
 *
 * @param state          {@link State#CLOSED}, {@link State#OPEN}, {@link State#FORCED_OPEN},
 *                       {@link State#FORCED_CLOSED}, or {@link State#HALF_OPEN}: this instance holds the
 *                       fleet's probe lease (an OPEN breaker then moves to HALF_OPEN and its next caller
 *                       probes)
 * @param remainingNanos for {@link State#OPEN}: time left until a probe may be tried (0 when due); for
 *                       {@link State#HALF_OPEN}: time left on this instance's lease; otherwise 0
 * @param cause          why the fleet is in this state (used for the local transition it leads to)
 */
public record SharedVerdict(State state, long remainingNanos, TransitionCause cause) {

    public SharedVerdict {
        if (state == null) {
            throw new IllegalArgumentException("state must not be null");
        }
        if (cause == null) {
            throw new IllegalArgumentException("cause must not be null");
        }
        if (remainingNanos < 0) {
            throw new IllegalArgumentException("remainingNanos must be >= 0, was " + remainingNanos);
        }
    }
}
