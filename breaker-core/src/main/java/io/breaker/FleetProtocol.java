package io.breaker;

import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.jspecify.annotations.Nullable;

import java.time.Clock;

/*
 * The fleet protocol: how a breaker built with a StateStore that returned a SharedState keeps its
 * phase as a local cache of the fleet's state. The breaker holds one of these in its field `shared`
 * (null in memory) and hands it every transition and every call the fleet must hear of; this class
 * asks the SharedState and moves the breaker's phase to the answer. It keeps no state of its own:
 * the breaker's phase is the only state, and every change of it is the breaker's CAS.
 *
 * Invariants:
 * - A fleet answer is adopted through the breaker's own CAS (adopt -> Transitions.transition), so
 *   listeners hear each local change once, in the order of the swaps, like any transition. An OPEN
 *   phase that only gets a new probe time from the fleet is replaced silently (no listener call), and
 *   not at all when the new time is within RETIME_TOLERANCE_NANOS of the old one.
 * - A null answer means "no store": the breaker then does what an in-memory breaker does (it
 *   probes, reopens, closes or takes the operator's change locally).
 * - The local window trips the breaker only while the SharedState allows it (allowsLocalTrip);
 *   otherwise the fleet's window decides, and its verdict comes back with the failure report. A trip
 *   made alone is told to the SharedState (trippedAlone), so that the store's older CLOSED, when it
 *   answers again, does not undo it.
 * - An instance asks the store for the probe lease once, not once per thread: the caller that finds
 *   the wait elapsed first claims the question by a CAS to an OPEN phase whose probe time is one
 *   lease ahead (startProbing); the other local callers meanwhile are rejected.
 * - A HALF_OPEN phase entered under the fleet's lease takes no new probe once that lease ends: the
 *   next caller moves it to a due OPEN (PROBE_LEASE_EXPIRED), which asks the fleet again.
 * - The count of failed probes since the trip (the backoff's, see Waits) is the fleet's: every
 *   phase adopted from a verdict that says it takes it, and the instance that fails a probe passes
 *   the store that count plus one with the wait it computed from it; the store keeps both, so every
 *   instance waits for the same reopen time. A trip reported through recordFailure passes the wait
 *   its failure would open for (a Retry-After included), for the store to use if the fleet trips.
 * - An OPEN phase adopted from the fleet keeps callers out at least MIN_SHARED_WAIT_NANOS, so no
 *   caller spins on the store. Its window is the fleet's counts as the fleet tripped, when the store
 *   says them, otherwise the local window as it is at the adoption.
 * - Every other call reaches the SharedState too (a success in CLOSED: recordSuccess; an outcome in
 *   FORCED_CLOSED or a rejection: touch), so a store refreshes its cache from calls instead of from
 *   a timer: it may start that refresh on its own bounded pool, but the calling thread never waits.
 *
 * Races tolerated:
 * - An answer may arrive late or on the store's thread (through the adopter given to connect), after
 *   the phase it answers was replaced: adopt applies it to the phase current then, retrying its CAS
 *   until it wins or the answer no longer changes anything. A HALF_OPEN answer (this instance holds
 *   the lease) applies to an OPEN phase only.
 * - A local transition and an adoption may race for the same phase: one CAS wins; the local one then
 *   gives up as any lost transition does, the adoption reads the new phase and applies to it.
 */

/** A shared breaker's side of the fleet protocol (see the notes above); one per shared breaker. */
final class FleetProtocol {

    /** A re-timing of OPEN smaller than this is not worth a CAS (instances differ by a round trip). */
    private static final long RETIME_TOLERANCE_NANOS = 20_000_000L;
    /** An OPEN phase adopted from the fleet keeps callers out at least this long, so none spins on the store. */
    private static final long MIN_SHARED_WAIT_NANOS = 1_000_000L;

    private final CircuitBreaker breaker;
    private final SharedState link;
    private final NanoClock clock;
    private final Clock wallClock;

    FleetProtocol(CircuitBreaker breaker, SharedState link, NanoClock clock, Clock wallClock) {
        this.breaker = breaker;
        this.link = link;
        this.clock = clock;
        this.wallClock = wallClock;
    }

    /** Gives the store the way back: it adopts what it learns on its own (a refresh) through {@link #adopt}. */
    void connect() {
        link.connect(this::adopt, clock);
    }

    /** The breaker's settings changed: the store uses the new ones from now on. */
    void reconfigure(BreakerConfig config) {
        link.reconfigure(config);
    }

    /** Whether the local window's verdict may trip the breaker now. */
    boolean allowsLocalTrip() {
        return link.allowsLocalTrip();
    }

    /** The local window tripped the breaker on its own for {@code wait}: the store hears of it. */
    void trippedAlone(TransitionCause cause, Waits.Wait wait) {
        link.trippedAlone(cause, wait.nanos(), wait.reason());
    }

    /** A call was rejected: it still keeps the cached fleet state fresh. */
    void touch() {
        link.touch();
    }

    /**
     * An outcome counted in the current episode ({@code state} CLOSED or FORCED_CLOSED): in CLOSED it
     * is reported to the fleet (a failed or slow call's answer is adopted at once, and the call's
     * {@code failure} decides the wait the fleet opens for if it trips); in FORCED_CLOSED it only
     * touches the store, since the fleet may have changed meanwhile.
     */
    void recorded(State state, CallOutcome outcome, @Nullable Object failure) {
        if (state != State.CLOSED) {
            link.touch();
            return;
        }
        if (outcome == CallOutcome.SUCCESS) {
            link.recordSuccess();
            return;
        }
        // The wait this failure would open the fleet for, should it trip it there (see Waits).
        Waits.Wait wait = Waits.after(breaker.getConfig(), 0, failure);
        SharedVerdict verdict = link.recordFailure(outcome, wait.nanos(), wait.reason());
        if (verdict != null) {
            adopt(verdict);
        }
    }

    /**
     * OPEN -> HALF_OPEN: one caller per instance asks the fleet for its probe lease. Returns the new
     * HALF_OPEN phase, or null (another caller won, or the fleet's answer was adopted instead).
     */
    @Nullable
    Phase startProbing(Phase open, long now) {
        // Claim the question first: meanwhile the other local callers find OPEN with a probe time
        // one lease ahead and are rejected, so an instance asks the store once, not once per thread.
        Phase asking = new Phase(
                State.OPEN,
                open.window,
                open.openedAtNanos,
                now + breaker.leaseNanos(),
                open.sinceEpochMillis,
                open.openedAtEpochMillis);
        asking.failedProbes = open.failedProbes; // plain writes before the CAS that publishes it
        asking.waitReason = open.waitReason;
        if (!Transitions.swapSilently(breaker, open, asking)) {
            return null;
        }
        SharedVerdict verdict = link.tryAcquireProbe();
        if (verdict == null || verdict.state() == State.HALF_OPEN) { // lease won, or no store: probe here
            boolean leased = verdict != null;
            long leaseEnd = leased ? clock.nanoTime() + fleetLease(verdict) : 0L;
            Phase halfOpen = Phase.halfOpen(
                    open.window,
                    open.openedAtNanos,
                    open.openedAtEpochMillis,
                    now + breaker.leaseNanos(),
                    leased,
                    leaseEnd,
                    wallClock.millis());
            halfOpen.failedProbes = failedProbes(verdict, open);
            return Transitions.transition(breaker, asking, halfOpen, TransitionCause.WAIT_ELAPSED) ? halfOpen : null;
        }
        adopt(verdict);
        return null;
    }

    /**
     * HALF_OPEN under the fleet's lease, which ran out at {@code now}: another instance may hold the
     * next one, so no probe without asking the fleet again. Moves back to a due OPEN and returns the
     * phase to go on from; returns null while this instance may still probe here.
     */
    @Nullable
    Phase leaseExpired(Phase halfOpen, long now) {
        if (!halfOpen.fleetLeaseOver(now)) {
            return null;
        }
        Phase due = new Phase(
                State.OPEN,
                halfOpen.window,
                halfOpen.openedAtNanos,
                now,
                wallClock.millis(),
                halfOpen.openedAtEpochMillis);
        due.failedProbes = halfOpen.failedProbes;
        return Transitions.transition(breaker, halfOpen, due, TransitionCause.PROBE_LEASE_EXPIRED)
                ? due
                : breaker.phase();
    }

    /**
     * A probe failed, the {@code failedProbes}-th since the trip: reopens the fleet for {@code wait}.
     * Returns false when the store gave no answer (reopen locally).
     */
    boolean probeFailed(int failedProbes, Waits.Wait wait) {
        return adoptAnswer(link.probeFailed(failedProbes, wait.nanos(), wait.reason()));
    }

    /** Enough probes succeeded: closes for the fleet. Returns false when the store gave no answer (close locally). */
    boolean probesSucceeded() {
        return adoptAnswer(link.probesSucceeded());
    }

    /**
     * An operator's change made through this instance: the fleet's answer is adopted, or, without
     * one, only the local breaker changes. Returns whether the state changed.
     */
    boolean operatorSets(State target) {
        SharedVerdict verdict = link.operatorSets(target);
        return verdict != null ? adopt(verdict) : OperatorChanges.setLocally(breaker, target);
    }

    private boolean adoptAnswer(@Nullable SharedVerdict verdict) {
        if (verdict == null) {
            return false;
        }
        adopt(verdict);
        return true;
    }

    /** The fleet's count of failed probes when the verdict says it, else the one {@code local} holds. */
    private static int failedProbes(@Nullable SharedVerdict verdict, Phase local) {
        return verdict != null && verdict.failedProbes() != SharedVerdict.UNKNOWN
                ? verdict.failedProbes()
                : local.failedProbes;
    }

    /** What is left of the fleet's probe lease a verdict grants (the whole lease when it does not say). */
    private long fleetLease(SharedVerdict leased) {
        return leased.remainingNanos() > 0
                ? Math.min(breaker.leaseNanos(), leased.remainingNanos())
                : breaker.leaseNanos();
    }

    /**
     * Moves the local phase to the fleet's state; returns whether the state changed. The change is
     * reported to listeners like any transition; an OPEN phase that only gets a new probe time is
     * replaced silently.
     */
    boolean adopt(SharedVerdict verdict) {
        State target = verdict.state();
        while (true) {
            Phase current = breaker.phase();
            Phase next;
            if (target == State.OPEN) {
                long now = clock.nanoTime();
                long probeAt = now + Math.max(verdict.remainingNanos(), MIN_SHARED_WAIT_NANOS);
                if (current.state == State.OPEN) {
                    if (Math.abs(current.probeAtNanos - probeAt) <= RETIME_TOLERANCE_NANOS) {
                        return false;
                    }
                    Phase retimed = new Phase(
                            State.OPEN,
                            current.window,
                            current.openedAtNanos,
                            probeAt,
                            current.sinceEpochMillis,
                            current.openedAtEpochMillis);
                    retimed.failedProbes = failedProbes(verdict, current);
                    retimed.waitReason = verdict.waitReason() != null ? verdict.waitReason() : current.waitReason;
                    if (Transitions.swapSilently(breaker, current, retimed)) {
                        return false;
                    }
                    continue;
                }
                // The numbers of the window that tripped: the fleet's, when the store says them.
                BreakerConfig config = breaker.getConfig();
                SlidingWindow tripped = verdict.tripped() == null
                        ? TrippedWindow.of(current.window, now, config)
                        : TrippedWindow.of(verdict.tripped(), config);
                next = Phase.open(tripped, now, probeAt, wallClock.millis());
                next.failedProbes = failedProbes(verdict, current);
                next.waitReason = verdict.waitReason();
            } else if (target == State.HALF_OPEN) {
                if (current.state != State.OPEN) {
                    return false; // already probing here, or a state the lease no longer matters to
                }
                // This instance holds the fleet's probe lease (won by a request that answered late or
                // asynchronously): its next caller takes the probe permit.
                long now = clock.nanoTime();
                next = Phase.halfOpen(
                        current.window,
                        current.openedAtNanos,
                        current.openedAtEpochMillis,
                        now + breaker.leaseNanos(),
                        true,
                        now + fleetLease(verdict),
                        wallClock.millis());
                next.failedProbes = failedProbes(verdict, current);
            } else if (target == current.state) {
                return false;
            } else if (target == State.FORCED_OPEN) {
                next = new Phase(State.FORCED_OPEN, current.window, 0L, 0L, wallClock.millis(), 0L);
            } else {
                next = Phase.closed(target, breaker.newWindow(), wallClock.millis());
            }
            if (Transitions.transition(breaker, current, next, verdict.cause())) {
                return true;
            }
        }
    }
}
