package io.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/*
 * Reconfiguration: new settings for a running breaker (CircuitBreaker.reconfigure, an operator's
 * change), and the settings a breaker starts with. Never on the call path.
 *
 * Invariants:
 * - The settings and what is derived from them (the breaker's fields `config`, `slowNanos` and
 *   `faults`, null when no fault is injected) are
 *   plain fields, read on the call path exactly as final ones would be (no volatile read, no
 *   indirection). Only settle writes them, and a reconfiguration then publishes a new phase by a
 *   volatile CAS, so a call that reads that phase sees them. A call already past its phase read may
 *   still use an old value once.
 * - One reconfiguration of a breaker at a time: the breaker's `reconfiguring` flag is taken by a CAS,
 *   and a second reconfiguration that finds it taken is refused, never waited for.
 * - The sliding-window type never changes: a breaker is built for one. Nor does the call timeout: the
 *   integrations choose a timed or an untimed call path once, when they first meet the breaker.
 * - The state never changes, so listeners are not told (swapSilently): CLOSED and FORCED_CLOSED get
 *   a fresh window with the new settings at once; OPEN in memory gets the trip time plus the new
 *   wait (grown by the backoff for its failed probes, without jitter) as its probe time (a wait a
 *   Retry-After made longer is kept, within that wait and the new cap: see Waits); a shared breaker's OPEN keeps the fleet's probe time, and HALF_OPEN and
 *   FORCED_OPEN keep their phase (the new settings apply to what they do next).
 *
 * Races tolerated:
 * - A transition may replace the phase read here before the swap: the CAS then fails, and the
 *   current phase is read and replaced instead.
 */

/** Gives a breaker its settings, at creation and while it runs (see the notes above). */
final class Reconfiguration {

    private static final VarHandle RECONFIGURING;

    static {
        try {
            RECONFIGURING = MethodHandles.lookup().findVarHandle(CircuitBreaker.class, "reconfiguring", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Reconfiguration() {}

    /** Writes {@code newConfig} and what is derived from it into the breaker's plain fields. */
    static void settle(CircuitBreaker breaker, BreakerConfig newConfig) {
        breaker.config = newConfig;
        breaker.slowNanos = newConfig.isSlowCallDetectionEnabled()
                ? newConfig.getSlowCallDurationThreshold().toNanos()
                : Long.MAX_VALUE;
        breaker.faults = Faults.of(breaker, newConfig);
    }

    /** What {@link CircuitBreaker#reconfigure(BreakerConfig)} does, as its Javadoc says. */
    static void reconfigure(CircuitBreaker breaker, BreakerConfig newConfig) {
        Objects.requireNonNull(newConfig, "newConfig");
        BreakerConfig config = breaker.config;
        if (newConfig.getSlidingWindowType() != config.getSlidingWindowType()) {
            throw new IllegalArgumentException("slidingWindowType cannot change on a running breaker (it is "
                    + config.getSlidingWindowType() + "); restart with the new type");
        }
        if (!Objects.equals(newConfig.getCallTimeout(), config.getCallTimeout())) {
            throw new IllegalArgumentException("callTimeout cannot change on a running breaker (it is "
                    + config.getCallTimeout() + "); restart with the new timeout");
        }
        if (!RECONFIGURING.compareAndSet(breaker, 0, 1)) {
            throw new IllegalStateException(
                    "another reconfiguration of circuit breaker '" + breaker.getName() + "' is under way");
        }
        try {
            settle(breaker, newConfig);
            FleetProtocol shared = breaker.shared;
            if (shared != null) {
                shared.reconfigure(newConfig);
            }
            while (true) {
                Phase current = breaker.phase();
                Phase next;
                if (current.state == State.CLOSED || current.state == State.FORCED_CLOSED) {
                    next = new Phase(current.state, breaker.newWindow(), 0L, 0L, current.sinceEpochMillis, 0L);
                } else if (current.state == State.OPEN && shared == null) {
                    next = new Phase(
                            State.OPEN,
                            current.window,
                            current.openedAtNanos,
                            current.openedAtNanos + Waits.retimedNanos(newConfig, current),
                            current.sinceEpochMillis,
                            current.openedAtEpochMillis);
                    // The same failed probes; why it waits that long, under the new settings (see Waits).
                    next.failedProbes = current.failedProbes;
                    next.waitReason = current.waitReason == WaitReason.RETRY_AFTER
                                    && next.probeAtNanos - next.openedAtNanos
                                            > Waits.backoffNanos(newConfig, current.failedProbes)
                            ? WaitReason.RETRY_AFTER
                            : next.probeAtNanos - next.openedAtNanos > Waits.configuredNanos(newConfig)
                                    ? WaitReason.BACKOFF
                                    : WaitReason.CONFIGURED;
                } else {
                    return;
                }
                // A volatile CAS after the plain writes above: whoever reads the new phase sees them.
                if (Transitions.swapSilently(breaker, current, next)) {
                    return;
                }
            }
        } finally {
            RECONFIGURING.setVolatile(breaker, 0);
        }
    }
}
