package io.breaker;

import org.jspecify.annotations.Nullable;

/*
 * Transitions: the automatic changes of state (CLOSED -> OPEN, OPEN -> HALF_OPEN, HALF_OPEN -> OPEN,
 * HALF_OPEN -> CLOSED). They run on a calling thread, only when a call changes the state: a record
 * whose window reached a threshold, a probe's outcome, a caller that finds the wait elapsed. The
 * ordinary call does not go through them.
 *
 * Invariants:
 * - Each transition is the breaker's CAS (CircuitBreaker.transition) from the phase its caller read
 *   to a new phase built here, so exactly one caller wins it, and listeners are told of it once.
 * - The first trip fixes the wait. A late failure (a call admitted before the trip) either reads the
 *   OPEN phase and is not counted, or read the old CLOSED phase, whose CAS then fails: it never
 *   replaces an OPEN phase, so it never pushes the probe time back.
 * - OPEN -> HALF_OPEN happens on a calling thread that finds the probe time passed; no thread, timer
 *   or executor exists anywhere in this module.
 * - A new CLOSED or FORCED_CLOSED phase always gets a fresh window (here on close; OperatorChanges,
 *   Reconfiguration and FleetProtocol.adopt do the same). OPEN and HALF_OPEN hold the window that
 *   tripped (TrippedWindow), which records nothing.
 * - Every decision about time uses the NanoClock. The wall clock (the breaker's `wallClock`) only
 *   dates a phase (stateSince, openedAt, a transition's time), and is read when a phase is built,
 *   never on a call that changes nothing.
 * - These methods are the seam where a shared store decides instead: a breaker built with a
 *   StateStore that returned a SharedState hands them to the FleetProtocol in its field `shared`,
 *   whose answer, when there is one, is adopted and replaces the local transition. In memory
 *   `shared` is null, and each transition decides alone.
 *
 * Races tolerated:
 * - Two callers may attempt the same transition from the same phase (two failures that both reach
 *   the threshold, two callers that both find the wait elapsed): one CAS wins, the other gives up;
 *   the caller of startProbing then reads the phase the winner made.
 */

/** The breaker's automatic transitions (see the notes above); static, on the breaker given. */
final class Transitions {

    private Transitions() {}

    /** CLOSED -> OPEN: the window of {@code closed} reached a threshold, for {@code cause}. */
    static void trip(CircuitBreaker breaker, Phase closed, TransitionCause cause) {
        FleetProtocol shared = breaker.shared;
        if (shared != null && !shared.allowsLocalTrip()) {
            return; // the fleet's window decides
        }
        long now = breaker.clock().nanoTime();
        Phase open = Phase.open(
                TrippedWindow.of(closed.window, now, breaker.config),
                now,
                now + breaker.waitNanos(),
                breaker.wallClock.millis());
        breaker.transition(closed, open, cause);
    }

    /** OPEN -> HALF_OPEN once the wait elapsed; returns the new phase, or null if another caller won. */
    static @Nullable Phase startProbing(CircuitBreaker breaker, Phase open, long now) {
        FleetProtocol shared = breaker.shared;
        if (shared != null) {
            return shared.startProbing(open, now);
        }
        Phase halfOpen = Phase.halfOpen(
                open.window,
                open.openedAtNanos,
                open.openedAtEpochMillis,
                now + breaker.leaseNanos(),
                breaker.wallClock.millis());
        return breaker.transition(open, halfOpen, TransitionCause.WAIT_ELAPSED) ? halfOpen : null;
    }

    /** HALF_OPEN -> OPEN: a probe failed; the wait starts again, with the window that tripped. */
    static void reopen(CircuitBreaker breaker, Phase halfOpen) {
        FleetProtocol shared = breaker.shared;
        if (shared != null && shared.probeFailed()) {
            return; // the fleet answered, and its state was adopted
        }
        long now = breaker.clock().nanoTime();
        breaker.transition(
                halfOpen,
                Phase.open(halfOpen.window, now, now + breaker.waitNanos(), breaker.wallClock.millis()),
                TransitionCause.PROBE_FAILED);
    }

    /** HALF_OPEN -> CLOSED: enough probes succeeded; counting starts again in a fresh window. */
    static void close(CircuitBreaker breaker, Phase halfOpen) {
        FleetProtocol shared = breaker.shared;
        if (shared != null && shared.probesSucceeded()) {
            return; // the fleet answered, and its state was adopted
        }
        breaker.transition(
                halfOpen,
                Phase.closed(State.CLOSED, breaker.newWindow(), breaker.wallClock.millis()),
                TransitionCause.PROBES_SUCCEEDED);
    }
}
