package io.breaker.spi;

import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import org.jspecify.annotations.Nullable;

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
 * @param tripped        for {@link State#OPEN} and {@link State#HALF_OPEN}: the counts of the fleet's
 *                       window when it tripped, which an instance that adopts the trip reports as its
 *                       numbers (its own window saw only its own calls); {@code null} when the store
 *                       does not know them (a state put back after the store lost it, or a verdict
 *                       the store made up, such as OPEN while it is unreachable)
 * @param failedProbes   for {@link State#OPEN} and {@link State#HALF_OPEN}: probes of the fleet that failed
 *                       since it tripped (the backoff's count, which the instance's next failed probe
 *                       grows); {@link #UNKNOWN} when the store does not say
 * @param waitReason     for {@link State#OPEN}: why the fleet's wait is as long as it is, or {@code null}
 *                       when the store does not say
 */
public record SharedVerdict(
        State state,
        long remainingNanos,
        TransitionCause cause,
        @Nullable Counts tripped,
        int failedProbes,
        @Nullable WaitReason waitReason) {

    /** {@link #failedProbes()} when the store does not say: the instance keeps its own count. */
    public static final int UNKNOWN = -1;

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
        if (failedProbes < UNKNOWN) {
            throw new IllegalArgumentException("failedProbes must be >= 0 or UNKNOWN (-1), was " + failedProbes);
        }
    }

    /** A verdict that does not say how many probes failed, nor why the fleet waits as it does. */
    public SharedVerdict(State state, long remainingNanos, TransitionCause cause, @Nullable Counts tripped) {
        this(state, remainingNanos, cause, tripped, UNKNOWN, null);
    }

    /** This verdict with another state and time left, saying the same about the fleet's trip and wait. */
    public SharedVerdict with(State otherState, long otherRemainingNanos) {
        return new SharedVerdict(otherState, otherRemainingNanos, cause, tripped, failedProbes, waitReason);
    }

    /** A verdict that does not say how the fleet's window tripped. */
    public SharedVerdict(State state, long remainingNanos, TransitionCause cause) {
        this(state, remainingNanos, cause, null);
    }

    /**
     * The counts of a window: calls, and of them the failed and the slow ones.
     *
     * @param calls       calls in the window
     * @param failedCalls of them, those that failed
     * @param slowCalls   of them, those that were slow (failed or not)
     */
    public record Counts(int calls, int failedCalls, int slowCalls) {

        public Counts {
            if (calls < 0 || failedCalls < 0 || slowCalls < 0 || failedCalls > calls || slowCalls > calls) {
                throw new IllegalArgumentException("counts must satisfy 0 <= failedCalls, slowCalls <= calls, were "
                        + calls + ", " + failedCalls + ", " + slowCalls);
            }
        }
    }
}
