package io.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/*
 * Listeners: who hears what, and in which order. On the call path only to tell listeners of each
 * call (callRecorded, callRejected: one loop over an array, empty when there are none).
 *
 * Invariants:
 * - Listeners hear every transition once, in the order of the swaps, never two at once: the breaker
 *   reports each swap it wins (swapped, swappedSilently), which links the phase replaced to the new
 *   one (Phase.successor, set once, after the CAS), and transitions are told by walking that chain,
 *   one thread at a time (tellInOrder).
 * - What listeners are told of a transition (Phase.arrival) is built after the CAS was won, and only
 *   while some listener is registered. It is written before the link, whose volatile write publishes
 *   it, and the link is made whatever happens: an unlinked swap would leave every later transition
 *   untold.
 * - A silent swap (new settings, OPEN re-timed) is linked like any other and told to no one.
 * - A listener that throws is logged and the breaker carries on (a VirtualMachineError propagates).
 *
 * Races tolerated:
 * - A transition may be told on another thread than the one that won it: when a swap happens while
 *   an earlier transition is still being told, the thread telling that one tells this one next (see
 *   tellInOrder). No thread waits for another's listeners.
 */

/**
 * What a breaker does with its listeners: adding and removing them (copy-on-write, never on the call
 * path), telling them of calls, and telling them of transitions once each, in the order of the swaps.
 * The state it works on is three fields of the breaker ({@code listeners}, {@code telling},
 * {@code told}), not an object of its own: a breaker's header and reference cost 24 bytes that a
 * separate object would add to every breaker. Whether some listener wants call durations is kept
 * in the breaker too, where the call path reads it.
 */
final class Listeners {

    private static final System.Logger LOGGER = System.getLogger(CircuitBreaker.class.getName());
    /** The listeners of a breaker that has none: one array shared by every breaker. */
    static final BreakerListener[] NONE = new BreakerListener[0];

    private static final VarHandle LISTENERS;
    private static final VarHandle TELLING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LISTENERS = lookup.findVarHandle(CircuitBreaker.class, "listeners", BreakerListener[].class);
            TELLING = lookup.findVarHandle(CircuitBreaker.class, "telling", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Listeners() {}

    /** Whether any listener is registered (with none, no transition event is built). */
    static boolean any(CircuitBreaker breaker) {
        return breaker.listeners.length != 0;
    }

    /** Tells every listener of a rejected call. */
    static void callRejected(CircuitBreaker breaker) {
        BreakerListener[] snapshot = breaker.listeners;
        for (BreakerListener listener : snapshot) {
            try {
                listener.onCallRejected(breaker);
            } catch (Throwable failure) {
                listenerFailed(breaker.getName(), listener, failure);
            }
        }
    }

    /**
     * Reports the swap {@code left -> next} the breaker has just won, a transition for {@code cause}:
     * builds what listeners are told of it, links it, and tells what is not told yet, in order. The
     * transition carries the numbers of the phase left; into OPEN, those of the new phase, which
     * holds the window as it tripped (its own, or the fleet's when a shared breaker adopts the
     * fleet's trip; on a reopening, the same window), and into OPEN, the new phase's wait and its reason.
     */
    static void swapped(CircuitBreaker breaker, Phase left, Phase next, TransitionCause cause) {
        try {
            if (any(breaker)) {
                boolean open = next.state == State.OPEN;
                next.arrival = new Transition(
                        breaker.getName(),
                        left.state,
                        next.state,
                        cause,
                        Instant.ofEpochMilli(next.sinceEpochMillis),
                        Readings.metrics(breaker, open ? next : left),
                        breaker.getLastFailureType(),
                        open ? Duration.ofNanos(Math.max(0L, next.probeAtNanos - next.openedAtNanos)) : null,
                        open ? Readings.waitReason(breaker, next) : null);
            }
        } finally {
            // After `arrival` (the volatile write publishes it), and whatever happens: an unlinked
            // swap would leave every later transition untold.
            left.successor = next;
        }
        tellInOrder(breaker);
    }

    /**
     * Reports the silent swap {@code left -> next} the breaker has just won (the same state: new
     * settings, or OPEN re-timed): links it, so that the transitions after it are told, and tells
     * what is not told yet.
     */
    static void swappedSilently(CircuitBreaker breaker, Phase left, Phase next) {
        left.successor = next;
        tellInOrder(breaker);
    }

    /*
     * Bug found by breaker-jcstress (ListenerOrderTest): the winner of each swap used to tell the
     * listeners itself, right after its CAS. Two transitions won on two threads were then told in
     * either order: thread A wins OPEN -> HALF_OPEN and, while it is still telling, thread B takes
     * the probe, fails it and tells HALF_OPEN -> OPEN first. A listener heard HALF_OPEN -> OPEN,
     * then OPEN -> HALF_OPEN (a history, a log or an event-driven state left showing HALF_OPEN).
     *
     * Now each swap links the phase it replaced to the new one (Phase.successor, set once, after
     * the CAS), and listeners are told by walking that chain from the last phase told: the chain
     * is the order of the CASes. One thread at a time walks it (the `telling` flag); a thread that
     * finds another walking leaves its transition to it and returns without waiting. The walker
     * re-checks the chain after letting go of the flag, so a transition linked meanwhile is never
     * left untold. No thread ever waits for another's listeners: a transition is told by its
     * winner, or by the thread telling the transitions before it, just after them.
     */
    static void tellInOrder(CircuitBreaker breaker) {
        while (TELLING.compareAndSet(breaker, 0, 1)) {
            try {
                Phase last = breaker.told;
                for (Phase following = last.successor; following != null; following = last.successor) {
                    last = following;
                    breaker.told = following; // first: a listener's VirtualMachineError skips only this transition
                    Transition arrival = following.arrival;
                    if (arrival != null) {
                        tell(breaker, arrival);
                    }
                }
            } finally {
                TELLING.setVolatile(breaker, 0);
            }
            if (breaker.told.successor == null) {
                return; // nothing linked while the flag was held; a later swap tells its own
            }
        }
    }

    static void tell(CircuitBreaker breaker, Transition transition) {
        for (BreakerListener listener : breaker.listeners) {
            try {
                listener.onStateTransition(transition);
            } catch (Throwable failure) {
                listenerFailed(breaker.getName(), listener, failure);
            }
        }
    }

    /** Adds a listener (copy-on-write: never on the call path). */
    static void add(CircuitBreaker breaker, BreakerListener listener) {
        Objects.requireNonNull(listener, "listener");
        while (true) {
            BreakerListener[] current = breaker.listeners;
            BreakerListener[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = listener;
            if (LISTENERS.compareAndSet(breaker, current, next)) {
                updateListenersWantDurations(breaker);
                return;
            }
        }
    }

    /** Removes a listener added before; does nothing if it is not there. */
    static void remove(CircuitBreaker breaker, BreakerListener listener) {
        while (true) {
            BreakerListener[] current = breaker.listeners;
            int index = Arrays.asList(current).indexOf(listener);
            if (index < 0) {
                return;
            }
            BreakerListener[] next = new BreakerListener[current.length - 1];
            System.arraycopy(current, 0, next, 0, index);
            System.arraycopy(current, index + 1, next, index, next.length - index);
            if (LISTENERS.compareAndSet(breaker, current, next.length == 0 ? NONE : next)) {
                updateListenersWantDurations(breaker);
                return;
            }
        }
    }

    /**
     * Derives the timing flag from the listeners. Concurrent changes may write it out of order, so a
     * writer checks afterwards that the array it read is still the current one, and derives again if
     * not: once every add or remove has returned, the flag matches the listeners.
     */
    private static void updateListenersWantDurations(CircuitBreaker breaker) {
        while (true) {
            BreakerListener[] current = breaker.listeners;
            boolean wanted = false;
            for (BreakerListener listener : current) {
                wanted |= listener.wantsCallDurations();
            }
            breaker.listenersWantDurations = wanted;
            if (breaker.listeners == current) {
                return;
            }
        }
    }

    /** Tells every listener of an outcome recorded. */
    static void callRecorded(CircuitBreaker breaker, CallOutcome outcome, long durationNanos) {
        BreakerListener[] snapshot = breaker.listeners;
        for (BreakerListener listener : snapshot) {
            try {
                listener.onCallRecorded(breaker, outcome, durationNanos);
            } catch (Throwable failure) {
                listenerFailed(breaker.getName(), listener, failure);
            }
        }
    }

    static void faultInjected(CircuitBreaker breaker, FaultKind kind) {
        for (BreakerListener listener : breaker.listeners) {
            try {
                listener.onFaultInjected(breaker, kind);
            } catch (Throwable failure) {
                listenerFailed(breaker.getName(), listener, failure);
            }
        }
    }

    private static void listenerFailed(String breakerName, BreakerListener listener, Throwable failure) {
        if (failure instanceof VirtualMachineError) {
            throw (VirtualMachineError) failure;
        }
        LOGGER.log(
                System.Logger.Level.WARNING,
                "Listener " + listener + " of circuit breaker '" + breakerName + "' threw; the breaker carries on",
                failure);
    }
}
