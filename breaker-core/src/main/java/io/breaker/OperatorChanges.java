package io.breaker;

/*
 * Operator changes: forceOpen, forceClosed and release (CircuitBreaker's public methods), made on
 * this instance alone in memory, or for the fleet through the FleetProtocol. Never on the call path.
 *
 * Invariants:
 * - An operator's change is a transition like any other: the breaker's CAS from the phase read to
 *   the new one, told to listeners once, with the cause OPERATOR. A forced state is therefore never
 *   overwritten by an automatic transition that read the state before it: that one's CAS fails.
 * - A change that loses its CAS reads the phase again and retries, until it wins or finds the
 *   breaker already in the state asked for (then nothing changes, and it says so).
 * - CLOSED (release) and FORCED_CLOSED get a fresh window, as every new CLOSED or FORCED_CLOSED
 *   phase does; FORCED_OPEN keeps the window it found, for display, and records nothing.
 * - A shared breaker asks the fleet first (FleetProtocol.operatorSets) and adopts its answer; only
 *   without an answer (no store) does this instance change alone, as in memory.
 */

/** Forced states and their release (see the notes above). */
final class OperatorChanges {

    private OperatorChanges() {}

    /** Moves the breaker to {@code target} as an operator asked; returns whether the state changed. */
    static boolean set(CircuitBreaker breaker, State target) {
        FleetProtocol shared = breaker.shared;
        return shared == null ? setLocally(breaker, target) : shared.operatorSets(target);
    }

    /** An operator's change of this breaker alone: in memory, or when the fleet gave no answer. */
    static boolean setLocally(CircuitBreaker breaker, State target) {
        while (true) {
            Phase current = breaker.phase();
            if (current.state == target) {
                return false;
            }
            Phase next = target == State.FORCED_OPEN
                    ? new Phase(State.FORCED_OPEN, current.window, 0L, 0L, breaker.wallClock.millis(), 0L)
                    : Phase.closed(target, breaker.newWindow(), breaker.wallClock.millis());
            if (Transitions.transition(breaker, current, next, TransitionCause.OPERATOR)) {
                return true;
            }
        }
    }
}
