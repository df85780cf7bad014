package io.breaker;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/*
 * Readings: the numbers and times a breaker's getters report (getMetrics, getOpenedAt,
 * getRemainingWaitNanos), the numbers a transition is told with, and what a rejected caller is told
 * (rejection). Never on the call path's fast branch: a rejection is built only after the call was
 * rejected, on the way to throwing it.
 *
 * Invariants:
 * - A reading reads one phase (the one it is given, which the caller read once, or for a rejection
 *   the current one, read once) and changes nothing: no CAS, no write. A getter never moves OPEN to
 *   HALF_OPEN; only a call does.
 * - In OPEN and HALF_OPEN the numbers are those of the window that tripped (the phase's window, a
 *   TrippedWindow), not of a window that still counts.
 * - The nano clock is read only for the counts of a time-based breaker and for the wait left in
 *   OPEN; the wall clock never: a time reported is the one the phase was built with.
 * - The count of rejected calls is exact when no rejection is under way; while rejections go on, a
 *   reading may leave out the ones being counted at that moment, never counts one twice, and a later
 *   reading never shows fewer (see RejectionCounter). A breaker that never rejected reads 0 without
 *   creating its counter.
 *
 * Races tolerated:
 * - A window's counts may be read while another thread's record is half applied: a reading may
 *   show that one record's change in part (see SlidingWindow).
 */

/** What a breaker's getters, its transitions and its rejections report about it (see the notes above). */
final class Readings {

    private Readings() {}

    /** The breaker's numbers as {@code of}'s window holds them, with the calls rejected so far. */
    static BreakerMetrics metrics(CircuitBreaker breaker, Phase of) {
        int[] counts =
                of.window.counts(breaker.windowNeedsClock ? breaker.clock().nanoTime() : 0L);
        return new BreakerMetrics(
                of.window.rate(counts[1], counts[0]),
                breaker.slowNanos == Long.MAX_VALUE ? -1f : of.window.rate(counts[2], counts[0]),
                counts[0],
                counts[1],
                counts[2],
                rejectedCount(breaker));
    }

    /** Calls the breaker rejected so far (see the notes above for how exact). */
    private static long rejectedCount(CircuitBreaker breaker) {
        RejectionCounter counter = breaker.rejections;
        return counter == null ? 0L : counter.sum();
    }

    /**
     * The exception for a call answered {@code answer} by the breaker's permission check: the
     * current phase's, unless the answer was an OPEN wait (below zero) and the breaker has left OPEN
     * since, when it is OPEN with the wait the answer gave.
     */
    static CircuitOpenException rejection(CircuitBreaker breaker, long answer) {
        Phase current = breaker.phase();
        if (answer < 0 && current.state != State.OPEN) {
            return new CircuitOpenException(breaker.getName(), State.OPEN, -answer);
        }
        return current.rejection(breaker.getName(), breaker.clock());
    }

    /** Wall-clock time of the trip that led to {@code current}, if it is OPEN or HALF_OPEN; otherwise null. */
    static @Nullable Instant openedAt(Phase current) {
        return current.state == State.OPEN || current.state == State.HALF_OPEN
                ? Instant.ofEpochMilli(current.openedAtEpochMillis)
                : null;
    }

    /** Why {@code current} waits as long as it does if it is OPEN, otherwise null (see Waits). */
    static @Nullable WaitReason waitReason(CircuitBreaker breaker, Phase current) {
        if (current.state != State.OPEN) {
            return null;
        }
        WaitReason reason = current.waitReason;
        return reason != null ? reason : WaitReason.CONFIGURED;
    }

    /**
     * When a probe is or became allowed if {@code current} is OPEN, otherwise null: its trip's wall-clock
     * time plus the nanoseconds from the trip to the probe time, so the answer stays the same once the
     * wait has elapsed, and agrees with {@link #openedAt}.
     */
    static @Nullable Instant nextProbeAt(Phase current) {
        if (current.state != State.OPEN) {
            return null;
        }
        long waitMillis = Math.floorDiv(current.probeAtNanos - current.openedAtNanos, 1_000_000L);
        return Instant.ofEpochMilli(current.openedAtEpochMillis + waitMillis);
    }

    /** Nanoseconds left until a probe is allowed if {@code current} is OPEN (0 once due), otherwise -1. */
    static long remainingWaitNanos(Phase current, NanoClock clock) {
        return current.state == State.OPEN ? Math.max(0L, current.probeAtNanos - clock.nanoTime()) : -1L;
    }
}
