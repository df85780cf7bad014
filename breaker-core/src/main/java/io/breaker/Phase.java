package io.breaker;

import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One state of the breaker, replaced whole on every transition: one episode. Half-open
 * bookkeeping is mutable and lives here so that a new HALF_OPEN episode starts from zero without
 * a reset race.
 */
final class Phase {

    /** The low bits of a permit: the probe generation within a HALF_OPEN episode. */
    private static final int GENERATION_BITS = 32;

    private static final long EPISODE_MASK = -1L << GENERATION_BITS;
    /**
     * Episode numbers, shared by every breaker of the JVM (only a transition takes one). They run
     * from 1 to {@link #MAX_EPISODE} and start again at 1, so every permit is above zero: never
     * {@link CircuitBreaker#NO_PERMIT}, and never one of the negative answers of
     * {@link io.breaker.internal.Integration#tryAcquirePermit}.
     */
    private static final AtomicLong EPISODES = new AtomicLong();

    private static final long MAX_EPISODE = Integer.MAX_VALUE;
    private static final VarHandle PROBES;

    static {
        try {
            PROBES = MethodHandles.lookup().findVarHandle(Phase.class, "probes", Probes.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final State state;
    final boolean permitsAll;
    final boolean records;
    /** This episode's number, in the high bits of a long: a CLOSED or FORCED_CLOSED permit. */
    final long episode;
    /** CLOSED, FORCED_CLOSED: the live window. Other states: the window that tripped, for display. */
    final SlidingWindow window;

    final long openedAtNanos;
    final long probeAtNanos;
    final long sinceEpochMillis;
    final long openedAtEpochMillis;

    /** HALF_OPEN only: the probes of this episode, replaced whole by CAS (never on the CLOSED path). */
    @SuppressWarnings("unused")
    private volatile @Nullable Probes probes;
    /**
     * OPEN only: why the wait is as long as it is (see Waits); null reads CONFIGURED. Written before the
     * CAS that publishes the phase, which orders it.
     */
    @Nullable
    WaitReason waitReason;
    /**
     * OPEN and HALF_OPEN: probes that failed since the trip (0 after the trip itself), which the backoff
     * multiplies the wait by (see Waits). Written before the CAS that publishes the phase, which orders it.
     */
    int failedProbes;
    /**
     * The exception every call this phase rejects gets, made by the first rejection (a rejected
     * call allocates nothing after it); volatile, since Throwable's fields are not final.
     */
    private volatile @Nullable CircuitOpenException rejection;
    /** The phase that replaced this one, linked by whoever swapped it, after the swap; null while current. */
    volatile @Nullable Phase successor;
    /**
     * What listeners are told of the swap that made this phase current, or null (no listener
     * then, or a silent swap). Written before {@code successor} is set on the phase replaced.
     */
    @Nullable
    Transition arrival;

    Phase(
            State state,
            SlidingWindow window,
            long openedAtNanos,
            long probeAtNanos,
            long sinceEpochMillis,
            long openedAtEpochMillis) {
        this.state = state;
        this.permitsAll = state.permitsAllCalls();
        this.records = state.permitsAllCalls();
        this.episode = episode(EPISODES.getAndIncrement());
        this.window = window;
        this.openedAtNanos = openedAtNanos;
        this.probeAtNanos = probeAtNanos;
        this.sinceEpochMillis = sinceEpochMillis;
        this.openedAtEpochMillis = openedAtEpochMillis;
    }

    /** The episode bits of the {@code taken}-th episode number taken (from 0): above zero, whatever {@code taken}. */
    static long episode(long taken) {
        return (taken % MAX_EPISODE + 1) << GENERATION_BITS;
    }

    static Phase closed(State state, SlidingWindow window, long sinceEpochMillis) {
        return new Phase(state, window, 0L, 0L, sinceEpochMillis, 0L);
    }

    static Phase open(SlidingWindow window, long openedAtNanos, long probeAtNanos, long nowEpochMillis) {
        return new Phase(State.OPEN, window, openedAtNanos, probeAtNanos, nowEpochMillis, nowEpochMillis);
    }

    static Phase halfOpen(
            SlidingWindow window,
            long openedAtNanos,
            long openedAtEpochMillis,
            long leaseDeadline,
            long sinceEpochMillis) {
        return halfOpen(window, openedAtNanos, openedAtEpochMillis, leaseDeadline, false, 0L, sinceEpochMillis);
    }

    /**
     * A HALF_OPEN phase; {@code fleetLeased}: this instance probes under the fleet's probe lease,
     * which ends at {@code fleetLeaseEnd} (after that it may not start a probe without asking again).
     */
    static Phase halfOpen(
            SlidingWindow window,
            long openedAtNanos,
            long openedAtEpochMillis,
            long leaseDeadline,
            boolean fleetLeased,
            long fleetLeaseEnd,
            long sinceEpochMillis) {
        Phase phase = new Phase(State.HALF_OPEN, window, openedAtNanos, 0L, sinceEpochMillis, openedAtEpochMillis);
        // Plain write before publication: the CAS that publishes the phase orders it.
        PROBES.set(phase, new Probes(0, 0, 0, leaseDeadline, fleetLeased, fleetLeaseEnd));
        return phase;
    }

    /**
     * The exception for a call this phase rejects: OPEN with the wait left read from {@code clock}
     * when asked, or this state with no wait known. Two callers racing on the first rejection may
     * each make one; either is right.
     */
    CircuitOpenException rejection(String breakerName, NanoClock clock) {
        CircuitOpenException made = rejection;
        if (made == null) {
            made = state == State.OPEN
                    ? new CircuitOpenException(breakerName, probeAtNanos, clock)
                    : new CircuitOpenException(breakerName, state, -1L);
            rejection = made;
        }
        return made;
    }

    /** Whether this phase probes under a fleet's lease that has run out at {@code now}. */
    boolean fleetLeaseOver(long now) {
        Probes current = (Probes) PROBES.getVolatile(this);
        return current != null && current.fleetLeased && now - current.fleetLeaseEnd >= 0;
    }

    /**
     * Takes a probe permit; when every permit is out and the newest was taken a whole lease ago,
     * starts a new generation (the silent probes' permits go stale). Returns the permit, or
     * {@link CircuitBreaker#NO_PERMIT}. A rejection reads one field and allocates nothing.
     */
    long tryTakeProbe(long now, int permitted, long leaseNanos) {
        while (true) {
            Probes current = (Probes) PROBES.getVolatile(this);
            Probes next;
            if (current.issued < permitted) {
                next = new Probes(
                        current.generation,
                        current.issued + 1,
                        current.succeeded,
                        now + leaseNanos,
                        current.fleetLeased,
                        current.fleetLeaseEnd);
            } else if (now - current.leaseDeadline < 0) {
                return CircuitBreaker.NO_PERMIT;
            } else {
                // Successes already reported keep their permits; every silent one is replaced.
                next = new Probes(
                        current.generation + 1,
                        current.succeeded + 1,
                        current.succeeded,
                        now + leaseNanos,
                        current.fleetLeased,
                        current.fleetLeaseEnd);
            }
            // One CAS over the whole record: the count, the generation and the lease move together.
            if (PROBES.compareAndSet(this, current, next)) {
                return episode | (next.generation & ~EPISODE_MASK);
            }
        }
    }

    /** Whether {@code permit} belongs to a probe of this episode's current generation. */
    boolean isCurrentProbe(long permit) {
        Probes current = (Probes) PROBES.getVolatile(this);
        return (permit & EPISODE_MASK) == episode && current != null && (int) permit == current.generation;
    }

    /** Gives a probe permit back (ignored or cancelled probe) if it is a current one. */
    void returnProbe(long permit) {
        while (true) {
            Probes current = (Probes) PROBES.getVolatile(this);
            if ((permit & EPISODE_MASK) != episode
                    || current == null
                    || (int) permit != current.generation
                    || current.issued <= current.succeeded) {
                return;
            }
            Probes next = new Probes(
                    current.generation,
                    current.issued - 1,
                    current.succeeded,
                    current.leaseDeadline,
                    current.fleetLeased,
                    current.fleetLeaseEnd);
            if (PROBES.compareAndSet(this, current, next)) {
                return;
            }
        }
    }

    /**
     * Counts a successful probe of the current generation; returns the successes so far, or 0 if
     * the permit went stale meanwhile.
     */
    int probeSucceeded(long permit) {
        while (true) {
            Probes current = (Probes) PROBES.getVolatile(this);
            if ((int) permit != current.generation) {
                return 0;
            }
            Probes next = new Probes(
                    current.generation,
                    current.issued,
                    current.succeeded + 1,
                    current.leaseDeadline,
                    current.fleetLeased,
                    current.fleetLeaseEnd);
            if (PROBES.compareAndSet(this, current, next)) {
                return next.succeeded;
            }
        }
    }

    /**
     * The probes of one HALF_OPEN episode: permits handed out in the current generation (successes
     * included), successes reported, when the newest permit's lease ends, and for a shared breaker
     * probing under the fleet's lease, when that lease ends.
     */
    private record Probes(
            int generation, int issued, int succeeded, long leaseDeadline, boolean fleetLeased, long fleetLeaseEnd) {}
}
