package io.breaker;

import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * Transitions: the automatic changes of state (CLOSED -> OPEN, OPEN -> HALF_OPEN, HALF_OPEN -> OPEN,
 * HALF_OPEN -> CLOSED), and the CAS every change of the breaker's phase goes through (transition and
 * swapSilently, which OperatorChanges, Reconfiguration and FleetProtocol call too). They run on a
 * calling thread, only when a call changes the state: a record whose window reached a threshold, a
 * probe's outcome, a caller that finds the wait elapsed. The ordinary call does not go through them.
 *
 * Invariants:
 * - The whole state is one immutable-ish Phase object held in the breaker's volatile field `phase`;
 *   every transition is a compare-and-set of that field from the Phase a caller read to a new one, so
 *   exactly one caller wins each transition, and listeners are told of it once, after the swap, in
 *   the order of the swaps (Listeners states how).
 * - A Phase's final fields (its state, its window, the trip time and the probe time) are written in
 *   its constructor, before the CAS publishes it: whoever sees OPEN sees its trip time.
 * - Each automatic transition is that CAS (transition) from the phase its caller read to a new phase
 *   built here.
 * - The first trip fixes the wait. A late failure (a call admitted before the trip) either reads the
 *   OPEN phase and is not counted, or read the old CLOSED phase, whose CAS then fails: it never
 *   replaces an OPEN phase, so it never pushes the probe time back.
 * - How long an OPEN phase waits is decided once, when it is built here: the configured wait, grown
 *   by the backoff for each probe failed since the trip (counted on the phases, Phase.failedProbes:
 *   0 on a trip, one more on each reopening, and a close starts a phase without any), less its
 *   jitter, or longer when the failure that made the transition (handed down by the record that
 *   reached the threshold, or by the failed probe) carries a Retry-After (see Waits). The phase
 *   carries the reason with it (Phase.waitReason), and so does the Transition told of it.
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

/**
 * The breaker's automatic transitions, and the CAS of every change of its phase (see the notes
 * above); static, on the breaker given.
 */
final class Transitions {

    private static final VarHandle PHASE;

    static {
        try {
            // CircuitBreaker.phase is package-private: this class's lookup reaches it.
            PHASE = MethodHandles.lookup().findVarHandle(CircuitBreaker.class, "phase", Phase.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Transitions() {}

    /**
     * CLOSED -> OPEN: the window of {@code closed} reached a threshold, for {@code cause}, on the
     * record of {@code failure} (the failed call's exception or result; null for a slow success),
     * whose Retry-After may make the wait longer (see Waits).
     */
    static void trip(CircuitBreaker breaker, Phase closed, TransitionCause cause, @Nullable Object failure) {
        FleetProtocol shared = breaker.shared;
        if (shared != null && !shared.allowsLocalTrip()) {
            return; // the fleet's window decides
        }
        long now = breaker.clock().nanoTime();
        Waits.Wait wait = Waits.after(breaker.config, 0, failure);
        Phase open = Phase.open(
                TrippedWindow.of(closed.window, now, breaker.config),
                now,
                now + wait.nanos(),
                breaker.wallClock.millis());
        open.waitReason = wait.reason();
        if (transition(breaker, closed, open, cause) && shared != null) {
            shared.trippedAlone(cause, wait); // the fleet did not decide it: the store must not undo it
        }
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
        halfOpen.failedProbes = open.failedProbes; // plain write before the CAS that publishes it
        return transition(breaker, open, halfOpen, TransitionCause.WAIT_ELAPSED) ? halfOpen : null;
    }

    /**
     * HALF_OPEN -> OPEN: a probe failed with {@code failure} (null for a slow success); the wait starts
     * again, with the window that tripped, one failed probe longer (the backoff), and as long as the
     * failure's Retry-After asks (see Waits).
     */
    static void reopen(CircuitBreaker breaker, Phase halfOpen, @Nullable Object failure) {
        FleetProtocol shared = breaker.shared;
        int failedProbes = halfOpen.failedProbes + 1;
        Waits.Wait wait = Waits.after(breaker.config, failedProbes, failure);
        if (shared != null && shared.probeFailed(failedProbes, wait)) {
            return; // the fleet answered, and its state was adopted
        }
        long now = breaker.clock().nanoTime();
        Phase open = Phase.open(halfOpen.window, now, now + wait.nanos(), breaker.wallClock.millis());
        open.waitReason = wait.reason();
        open.failedProbes = failedProbes;
        transition(breaker, halfOpen, open, TransitionCause.PROBE_FAILED);
    }

    /** HALF_OPEN -> CLOSED: enough probes succeeded; counting starts again in a fresh window. */
    static void close(CircuitBreaker breaker, Phase halfOpen) {
        FleetProtocol shared = breaker.shared;
        if (shared != null && shared.probesSucceeded()) {
            return; // the fleet answered, and its state was adopted
        }
        transition(
                breaker,
                halfOpen,
                Phase.closed(State.CLOSED, breaker.newWindow(), breaker.wallClock.millis()),
                TransitionCause.PROBES_SUCCEEDED);
    }

    /**
     * Swaps {@code expected} for {@code next} in {@code breaker} and has the listeners told of it, for
     * {@code cause} (see Listeners.swapped for what they are told).
     */
    static boolean transition(CircuitBreaker breaker, Phase expected, Phase next, TransitionCause cause) {
        // A volatile CAS: it publishes the new phase with all its final fields written (JLS 17.5),
        // and only one caller can win it from a given phase.
        if (!PHASE.compareAndSet(breaker, expected, next)) {
            return false;
        }
        Listeners.swapped(breaker, expected, next, cause);
        return true;
    }

    /**
     * Swaps {@code expected} for {@code next} in {@code breaker} without telling listeners (the state
     * is the same: new settings, or OPEN re-timed); the swap still links the chain they are told from.
     */
    static boolean swapSilently(CircuitBreaker breaker, Phase expected, Phase next) {
        // A volatile CAS, as in transition(): only one caller can win it from a given phase.
        boolean won = PHASE.compareAndSet(breaker, expected, next);
        if (won) {
            Listeners.swappedSilently(breaker, expected, next);
        }
        return won;
    }
}
