package io.breaker;

import io.breaker.internal.CallPath;
import io.breaker.internal.Integration;
import io.breaker.spi.OutcomeBits;
import io.breaker.spi.SharedState;
import io.breaker.spi.StateStore;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/*
 * The state machine.
 *
 * States: CLOSED, OPEN, HALF_OPEN (automatic) and FORCED_OPEN, FORCED_CLOSED (operator). The whole
 * state is one immutable-ish Phase object held in the volatile field `phase`, which only the
 * compare-and-set in Transitions replaces once the breaker is built: Transitions.java states why
 * exactly one caller wins each transition and how a new phase is published whole.
 *
 * Invariants:
 * - Every Phase is an episode with its own number (Phase.episode). A permit is that number (plus,
 *   in HALF_OPEN, the probe generation), handed out at admission and given back with the outcome: an
 *   outcome counts only in the episode that admitted its call. A call admitted in CLOSED that ends
 *   after a trip is not counted toward HALF_OPEN, and a call of an earlier CLOSED episode never lands
 *   in a later window. Checking costs one comparison of a final field: no allocation, no clock.
 * - In HALF_OPEN at most `permittedCallsInHalfOpenState` probes hold a permit at once: permits are
 *   taken by CAS on Phase.probes. A permit comes back only when its own probe is ignored or
 *   cancelled. When every permit is out and the newest was taken a whole probe lease ago, the next
 *   caller starts a new probe generation: the silent probes' permits become stale (their outcomes
 *   and cancels no longer count), so the breaker can never be stuck in HALF_OPEN, and a lost probe
 *   can neither decide nor free a permit once it was replaced.
 * - The transitions keep their own invariants, stated at the top of Transitions.java: one CAS that
 *   exactly one caller wins, a new phase published with its final fields written, the first trip
 *   fixes the wait, OPEN -> HALF_OPEN happens on a calling thread, every new CLOSED phase gets a
 *   fresh window, and only the NanoClock decides when.
 *
 * Races tolerated:
 * - A window's counts may be read while another thread's record is half applied (see SlidingWindow);
 *   the verdict is then re-evaluated by the next record.
 * - A transition may be told to listeners on another thread than the one that won it (see Listeners,
 *   whose notes say why each is still told once, in order, never two at once).
 *
 * Next to this file, each with its notes at its top: Phase.java (one state and its probe
 * bookkeeping), Execution.java (execute, call and run, over the two steps), Transitions.java (the
 * automatic transitions, and the CAS of every transition), Listeners.java (who hears what, and in
 * which order, from the swaps the breaker reports), SlidingWindow.java and its two windows (the
 * counting), FleetProtocol.java (a shared breaker's side of the fleet protocol, with its own
 * invariants and races). Off the call path's fast branch: Reconfiguration.java (the settings, which
 * the call path reads as plain fields, and new ones for a running breaker), Readings.java (the
 * numbers and times the getters and the transitions report, the count of rejected calls among them,
 * and the exception a rejected caller gets), OperatorChanges.java (forced states and their release).
 *
 * A shared breaker hands its transitions to the FleetProtocol in `shared` (see Transitions.java). In
 * memory `shared` is null, and costs one read of it per recorded outcome and per rejection. The hot
 * path does not go through the transitions.
 */

/**
 * A circuit breaker: counts the outcomes of the calls it protects and, when too many fail or are
 * slow, rejects calls for a while, then lets probes decide whether to close again.
 *
 * <p>Use it directly:
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.of("wholesaler", BreakerConfig.ofDefaults());
 * Integer days = breaker.execute(() -> wholesaler.deliveryDays(isbn));
 * }</pre>
 * or in two steps, as integrations do:
 * <pre>{@code
 * long permit = breaker.tryAcquirePermit();
 * if (permit == CircuitBreaker.NO_PERMIT) {
 *     return fallback();                              // rejected: the call does not run
 * }
 * long start = System.nanoTime();
 * try {
 *     T result = call();
 *     breaker.onSuccess(permit, System.nanoTime() - start);
 *     return result;
 * } catch (Throwable error) {
 *     breaker.onError(permit, System.nanoTime() - start, error);
 *     throw error;
 * }
 * }</pre>
 * <p>The two-step contract: every permit granted is given back exactly once, with
 * {@link #onSuccess(long, long)}, {@link #onError(long, long, Throwable)} or
 * {@link #releasePermit(long)} (the call was cancelled or never ran). A permit belongs to the
 * episode that granted it (one CLOSED period, one HALF_OPEN probe generation): an outcome reported
 * with a permit of an earlier episode is told to listeners but counts nowhere. A call admitted in
 * CLOSED that ends after the breaker tripped therefore never decides a probe, never frees a probe
 * permit and never lands in a later window. A permit is a plain {@code long}: taking and checking it
 * allocates nothing.
 *
 * <p>Thread-safe and lock-free. No thread or timer is ever started: time is read from the
 * {@link NanoClock} on the calling thread.
 */
public final class CircuitBreaker extends CallPath {

    private static final int NOT_SLOW_OR_FAILED = OutcomeBits.CALL;

    /** What {@link #tryAcquirePermit()} returns for a rejected call; never a valid permit. */
    public static final long NO_PERMIT = 0L;

    private final String name;
    private final NanoClock clock;
    /** The wall clock of stateSince, openedAt and transition times; read on transitions only. */
    final Clock wallClock;

    final boolean windowNeedsClock;
    /*
     * The settings and what is derived from them: plain fields, read on the call path exactly as final
     * ones would be. Only Reconfiguration writes them (its notes say how a change reaches the calls).
     */
    BreakerConfig config;
    /** Long.MAX_VALUE when slow-call detection is off: no duration reaches it. */
    long slowNanos;
    /** The faults injected into calls (see Faults); null, and read as one plain field, when none are set. */
    @Nullable
    Faults faults;
    /** 1 while a reconfiguration runs: a second one at the same time is refused (see Reconfiguration). */
    @SuppressWarnings("unused") // accessed through Reconfiguration's VarHandle
    volatile int reconfiguring;
    /** The fleet protocol when shared through a StateStore; null (the default) in memory only. */
    final @Nullable FleetProtocol shared;

    /** The current phase; once the breaker is built, only Transitions' CAS replaces it. */
    volatile Phase phase;
    /**
     * Rejected calls: a slot per calling thread, which only that thread writes, so that concurrent
     * rejections (an outage sends the most traffic into an OPEN breaker) pay no atomic instruction
     * and write no shared cache line; created by the first rejection (an idle or healthy breaker
     * does not carry it). Exact once no rejection is under way (see Readings).
     */
    volatile @Nullable RejectionCounter rejections;
    /** Written by a failure of another type than the one kept (see noteFailureType); read by transitions. */
    private volatile @Nullable String lastFailureType;
    /** The listeners, copy-on-write (see Listeners, which alone writes this and the next two fields). */
    volatile BreakerListener[] listeners = Listeners.NONE;
    /** 1 while a thread tells listeners the transitions not told yet (see Listeners.tellInOrder). */
    @SuppressWarnings("unused") // accessed through Listeners' VarHandle
    volatile int telling;
    /** The newest phase whose arrival has been told; written only by the thread holding {@code telling}. */
    volatile Phase told;
    /** Whether some listener wants call durations (see BreakerListener#wantsCallDurations); Listeners keeps it. */
    volatile boolean listenersWantDurations;

    private CircuitBreaker(
            String name, BreakerConfig config, NanoClock clock, Clock wallClock, @Nullable SharedState link) {
        this.shared = link == null ? null : new FleetProtocol(this, link, clock, wallClock);
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        Reconfiguration.settle(this, Objects.requireNonNull(config, "config"));
        this.windowNeedsClock = config.getSlidingWindowType() == SlidingWindowType.TIME_BASED;
        this.phase = new Phase(State.CLOSED, newWindow(), 0L, 0L, wallClock.millis(), 0L);
        this.told = this.phase;
    }

    /** A breaker on the system's clocks. */
    public static CircuitBreaker of(String name, BreakerConfig config) {
        return new CircuitBreaker(name, config, NanoClock.system(), Clock.systemUTC(), null);
    }

    /** A breaker on the given clock (tests move it instead of sleeping). */
    public static CircuitBreaker of(String name, BreakerConfig config, NanoClock clock) {
        return new CircuitBreaker(name, config, clock, Clock.systemUTC(), null);
    }

    /**
     * A breaker on the given clock whose state is shared with other instances through {@code store},
     * if the store returns a {@link SharedState} for this name (otherwise, or with a {@code null}
     * store, an in-memory breaker).
     */
    public static CircuitBreaker of(String name, BreakerConfig config, NanoClock clock, @Nullable StateStore store) {
        return of(name, config, clock, Clock.systemUTC(), store);
    }

    /**
     * Same, with the wall clock that dates its transitions ({@link #getStateSince()},
     * {@link #getOpenedAt()}, {@link Transition#at()}); the nano clock alone decides when.
     */
    public static CircuitBreaker of(
            String name, BreakerConfig config, NanoClock clock, Clock wallClock, @Nullable StateStore store) {
        @Nullable SharedState link = store == null ? null : store.attach(name, config);
        CircuitBreaker breaker = new CircuitBreaker(name, config, clock, wallClock, link);
        if (breaker.shared != null) {
            breaker.shared.connect();
        }
        return breaker;
    }

    /** Whether this breaker shares its state with other instances through a {@link StateStore}. */
    public boolean isShared() {
        return shared != null;
    }

    /** The breaker's name. */
    public String getName() {
        return name;
    }

    /** The breaker's settings. */
    public BreakerConfig getConfig() {
        return config;
    }

    /**
     * Replaces the breaker's settings while it runs (an operator's change; never on the call path).
     * The sliding-window type and the call timeout cannot change (a breaker is built for them); everything else can:
     * <ul>
     * <li>CLOSED or FORCED_CLOSED: a fresh window with the new size, minimum and thresholds, at once
     *     (calls admitted before count nowhere, as after any new episode);</li>
     * <li>OPEN: in memory, the probe time becomes the trip time plus the new wait; a shared breaker
     *     keeps the fleet's probe time (the fleet's next trip uses the new wait);</li>
     * <li>HALF_OPEN: the probes already let through decide under the old count of permitted probes
     *     only if they report before the next probe is asked for; exceptions and slow-call settings
     *     apply to every outcome reported from now on.</li>
     * </ul>
     * The call path pays nothing for this: it reads the same plain fields as before. Listeners are
     * not told (the state does not change); a shared store is given the new settings.
     *
     * @throws IllegalArgumentException if {@code newConfig} has another sliding-window type or call timeout
     * @throws IllegalStateException    if another reconfiguration of this breaker is under way (changes
     *                                  are made one at a time; nothing waits)
     */
    public void reconfigure(BreakerConfig newConfig) {
        Reconfiguration.reconfigure(this, newConfig);
    }

    /** The clock this breaker reads; integrations get it through {@link Integration#clock}. */
    @Override
    protected NanoClock clock() {
        return clock;
    }

    /** The current state. An OPEN breaker whose wait has elapsed still reads OPEN until a call arrives. */
    public State getState() {
        return phase.state;
    }

    // ---------------------------------------------------------------- the call path

    /**
     * Asks to let one call through. In CLOSED this is one volatile read: no lock, no clock, no
     * allocation. A rejection is counted and told to listeners, and allocates nothing either (the
     * breaker's rejection counter is created by its first rejection: one allocation, not one per
     * call).
     *
     * @return a permit for the call, to give back exactly once with its outcome, or {@link #NO_PERMIT}
     *         if the call is rejected
     */
    public long tryAcquirePermit() {
        return Math.max(NO_PERMIT, permitOrWaitLeft());
    }

    /**
     * Like {@link #tryAcquirePermit()}, but throws when the call is rejected.
     *
     * @return a permit for the call, to give back exactly once with its outcome
     * @throws CircuitOpenException if the breaker rejects the call
     */
    public long acquirePermit() {
        long answer = permitOrWaitLeft();
        if (answer <= NO_PERMIT) {
            throw rejection(answer);
        }
        return answer;
    }

    /**
     * The one admission every way of asking goes through ({@link #tryAcquirePermit()},
     * {@link #acquirePermit()}, {@link Integration#tryAcquirePermit}): a permit (above zero), or a
     * rejection. A call rejected because the breaker is OPEN and still waiting is answered with the
     * nanoseconds left until a probe, negated: the one clock reading that decided the rejection also
     * dates it, and no write other callers make is involved. Every other rejection is {@link #NO_PERMIT}.
     */
    @Override
    protected long permitOrWaitLeft() {
        Phase current = phase;
        if (current.permitsAll) {
            return current.episode;
        }
        if (current.state == State.OPEN) {
            long left = current.probeAtNanos - clock.nanoTime();
            if (left > 0) {
                reject();
                return -left;
            }
        }
        return acquireOutsideClosed(current);
    }

    /**
     * The rejection of a call that {@link #permitOrWaitLeft()} answered with {@code answer} (not a
     * permit): the state as it is now, or OPEN with the wait left it was answered with if it has moved on.
     */
    @Override
    protected CircuitOpenException rejection(long answer) {
        return Readings.rejection(this, answer);
    }

    /** Reports that the call holding {@code permit} completed normally, after {@code durationNanos}. */
    public void onSuccess(long permit, long durationNanos) {
        CallOutcome outcome = durationNanos >= slowNanos ? CallOutcome.SLOW_SUCCESS : CallOutcome.SUCCESS;
        record(outcome, permit, durationNanos, windowNeedsClock ? clock.nanoTime() : 0L, null);
    }

    /**
     * Reports that the call holding {@code permit} failed, after {@code durationNanos}. The config
     * decides whether the error counts as a failure or is ignored (then the call counts neither way
     * and its half-open permit is given back).
     *
     * @return whether the error counted as a failure (not ignored), so an integration need not classify it
     *         again to decide whether a fallback may answer (a stale permit's failure is still one)
     */
    public boolean onError(long permit, long durationNanos, Throwable error) {
        return onError(permit, durationNanos, error, windowNeedsClock ? clock.nanoTime() : 0L);
    }

    /**
     * The call holding {@code permit} returned, after {@code durationNanos}, a result the caller counts
     * as a failure (an HTTP 503, say): a failure whatever the exception rules say; {@code resultType}
     * becomes {@link #getLastFailureType()}.
     */
    public void onFailedResult(long permit, long durationNanos, String resultType) {
        onFailedResult(permit, durationNanos, resultType, null, windowNeedsClock ? clock.nanoTime() : 0L);
    }

    /**
     * Gives a permit back without recording anything: the call was cancelled, or never ran. In
     * HALF_OPEN the probe permit becomes free for another caller, if it is still that probe's.
     */
    public void releasePermit(long permit) {
        Phase current = phase;
        if (current.state == State.HALF_OPEN) {
            current.returnProbe(permit);
        }
    }

    /**
     * Runs the supplier through the breaker: its outcome and duration are recorded, and whatever it
     * throws is rethrown unchanged.
     *
     * @return what the supplier returned
     * @throws CircuitOpenException if the breaker rejects the call (the supplier does not run)
     */
    public <T extends @Nullable Object> T execute(Supplier<T> supplier) {
        return Execution.execute(this, supplier);
    }

    /**
     * Runs the callable through the breaker: its outcome and duration are recorded, and whatever it
     * throws is rethrown unchanged.
     *
     * @return what the callable returned
     * @throws CircuitOpenException if the breaker rejects the call (the callable does not run)
     * @throws Exception            what the callable threw
     */
    public <T extends @Nullable Object> T call(Callable<T> callable) throws Exception {
        return Execution.call(this, callable);
    }

    /**
     * Runs the runnable through the breaker: its outcome and duration are recorded, and whatever it
     * throws is rethrown unchanged.
     *
     * @throws CircuitOpenException if the breaker rejects the call (the runnable does not run)
     */
    public void run(Runnable runnable) {
        Execution.run(this, runnable);
    }

    /** Whether calls must be timed: for slow-call detection, or because a listener wants durations. */
    @Override
    protected boolean timed() {
        return slowNanos != Long.MAX_VALUE || listenersWantDurations;
    }

    /**
     * {@link #onSuccess(long, long)} given this breaker's clock readings at the call's start and end
     * (integrations reach it through {@link Integration#onSuccess}): the end reading is the one a
     * time-based window files the outcome under, so the clock is not read again.
     */
    @Override
    protected void onSuccessBetween(long permit, long startNanos, long endNanos, CallOutcome slowOutcome) {
        long duration = endNanos - startNanos;
        record(duration >= slowNanos ? slowOutcome : CallOutcome.SUCCESS, permit, duration, endNanos, null);
    }

    /** {@link #onError(long, long, Throwable)} given the call's start and end readings; see {@link #onSuccessBetween}. */
    @Override
    protected boolean onErrorBetween(long permit, long startNanos, long endNanos, Throwable error) {
        return onError(permit, endNanos - startNanos, error, endNanos);
    }

    /** {@link #onFailedResult(long, long, String)} given the call's readings and the result (for its Retry-After). */
    @Override
    protected void onFailedResultBetween(long permit, long start, long end, String type, @Nullable Object result) {
        onFailedResult(permit, end - start, type, result, end);
    }

    private void onFailedResult(long permit, long duration, String type, @Nullable Object result, long nowNanos) {
        noteFailureType(type);
        CallOutcome outcome = duration >= slowNanos ? CallOutcome.SLOW_FAILURE : CallOutcome.FAILURE;
        record(outcome, permit, duration, nowNanos, result);
    }

    /**
     * Keeps {@code type} as the last failure's type. The field sits beside the phase and the settings
     * every call reads, usually on their cache line, so a failure of the type already kept (a class's
     * name is one string) writes nothing: a write there would make every other core's next call fetch
     * the line again.
     */
    private void noteFailureType(String type) {
        if (lastFailureType != type) {
            lastFailureType = type;
        }
    }

    private boolean onError(long permit, long durationNanos, Throwable error, long nowNanos) {
        if (!config.isFailure(error)) {
            releasePermit(permit);
            Listeners.callRecorded(this, CallOutcome.IGNORED, durationNanos);
            return false;
        }
        noteFailureType(error.getClass().getName());
        CallOutcome outcome = durationNanos >= slowNanos ? CallOutcome.SLOW_FAILURE : CallOutcome.FAILURE;
        record(outcome, permit, durationNanos, nowNanos, error);
        return true;
    }

    /**
     * Counts an outcome in the episode that admitted its call, if that episode is still the current
     * one; listeners hear of every outcome either way. {@code failure}, the exception or result of a
     * failed call (else null), goes to the transition it makes, for its Retry-After (see Waits).
     */
    void record(CallOutcome outcome, long permit, long durationNanos, long nowNanos, @Nullable Object failure) {
        Phase current = phase;
        if (current.records) {
            if (permit != current.episode) {
                Listeners.callRecorded(this, outcome, durationNanos); // admitted in an earlier episode: counts nowhere
                return;
            }
            int bits = OutcomeBits.of(outcome);
            boolean changed = current.window.record(bits, nowNanos);
            FleetProtocol fleet = shared; // one read of the field: null in memory
            if (fleet != null) {
                fleet.recorded(current.state, outcome, failure);
            }
            // A shared breaker asks its local window after every failed or slow call, changed or not:
            // while the store decides, a full window of failures changes no slot, and it must still
            // trip the moment the store lets it (an outage of the store starts between two calls).
            if ((changed || (fleet != null && bits != NOT_SLOW_OR_FAILED)) && current.state == State.CLOSED) {
                int verdict = current.window.evaluate(nowNanos);
                if (verdict != SlidingWindow.BELOW_THRESHOLDS) {
                    Transitions.trip(
                            this,
                            current,
                            verdict == SlidingWindow.FAILURE_RATE_REACHED
                                    ? TransitionCause.FAILURE_RATE
                                    : TransitionCause.SLOW_CALL_RATE,
                            failure);
                }
            }
        } else if (current.state == State.HALF_OPEN && current.isCurrentProbe(permit)) {
            if (outcome == CallOutcome.SUCCESS) {
                if (current.probeSucceeded(permit) >= config.getPermittedCallsInHalfOpenState()) {
                    Transitions.close(this, current);
                }
            } else {
                Transitions.reopen(this, current, failure);
            }
        }
        // OPEN and FORCED_OPEN, or a stale probe: the call was admitted before; it counts nowhere.
        Listeners.callRecorded(this, outcome, durationNanos);
    }

    private long acquireOutsideClosed(Phase current) {
        while (true) {
            switch (current.state) {
                case CLOSED:
                case FORCED_CLOSED:
                    return current.episode;
                case OPEN: {
                    long now = clock.nanoTime();
                    if (now - current.probeAtNanos < 0) {
                        return reject();
                    }
                    Phase halfOpen = Transitions.startProbing(this, current, now);
                    current = halfOpen != null ? halfOpen : phase;
                    continue;
                }
                case HALF_OPEN: {
                    long now = clock.nanoTime();
                    Phase afterLease = shared == null ? null : shared.leaseExpired(current, now);
                    if (afterLease != null) {
                        current = afterLease; // the fleet's lease this instance probed under ran out
                        continue;
                    }
                    long permit = current.tryTakeProbe(now, config.getPermittedCallsInHalfOpenState(), leaseNanos());
                    return permit != NO_PERMIT ? permit : reject();
                }
                default: // FORCED_OPEN
                    return reject();
            }
        }
    }

    private long reject() {
        RejectionCounter counter = rejections;
        if (counter == null) {
            counter = RejectionCounter.firstFor(this);
        }
        counter.increment();
        if (shared != null) {
            shared.touch();
        }
        Listeners.callRejected(this);
        return NO_PERMIT;
    }

    /** The probe lease, read from the config outside CLOSED (a breaker keeps no copy). */
    long leaseNanos() {
        return config.getProbeLease().toNanos();
    }

    // ---------------------------------------------------------------- transitions (see Transitions)

    /**
     * Forces the breaker OPEN: every call is rejected until {@link #release()}.
     *
     * @return {@code true} if the state changed
     */
    public boolean forceOpen() {
        return OperatorChanges.set(this, State.FORCED_OPEN);
    }

    /**
     * Forces the breaker CLOSED: every call passes and is recorded, and the breaker never trips
     * until {@link #release()}.
     *
     * @return {@code true} if the state changed
     */
    public boolean forceClosed() {
        return OperatorChanges.set(this, State.FORCED_CLOSED);
    }

    /**
     * Returns the breaker to automatic operation: CLOSED with a fresh window, whatever its state.
     *
     * @return {@code true} if the state changed (a CLOSED breaker is left as it is)
     */
    public boolean release() {
        return OperatorChanges.set(this, State.CLOSED);
    }

    /** The current phase (the fleet protocol adopts answers into it). */
    Phase phase() {
        return phase;
    }

    SlidingWindow newWindow() {
        return SlidingWindow.of(config, clock);
    }

    // ---------------------------------------------------------------- observation
    /** The breaker's current numbers. In OPEN and HALF_OPEN they are those of the window that tripped. */
    public BreakerMetrics getMetrics() {
        return Readings.metrics(this, phase);
    }

    /** Wall-clock time of the last transition (or of creation). */
    public Instant getStateSince() {
        return Instant.ofEpochMilli(phase.sinceEpochMillis);
    }

    /** Wall-clock time of the trip that led to the current OPEN or HALF_OPEN state, or {@code null}. */
    public @Nullable Instant getOpenedAt() {
        return Readings.openedAt(phase);
    }

    /** Nanoseconds left until a probe is allowed while OPEN (0 once due), or -1 in any other state. */
    public long getRemainingWaitNanos() {
        return Readings.remainingWaitNanos(phase, clock);
    }

    /** While OPEN, the wall-clock time a probe is or became allowed (the trip plus the wait); else {@code null}. */
    public @Nullable Instant getNextProbeAt() {
        return Readings.nextProbeAt(phase);
    }

    /** Why the breaker waits as long as it does while OPEN (see {@link WaitReason}); {@code null} in other states. */
    public @Nullable WaitReason getWaitReason() {
        return Readings.waitReason(this, phase);
    }

    /** Class name of the last exception (or {@link #onFailedResult result}) recorded as a failure, or {@code null}. */
    public @Nullable String getLastFailureType() {
        return lastFailureType;
    }

    /** Adds a listener (copy-on-write: never on the call path). */
    public void addListener(BreakerListener listener) {
        Listeners.add(this, listener);
    }

    /** Removes a listener added before; does nothing if it is not there. */
    public void removeListener(BreakerListener listener) {
        Listeners.remove(this, listener);
    }

    @Override
    public String toString() {
        return "CircuitBreaker{name=" + name + ", state=" + phase.state + "}";
    }
}
