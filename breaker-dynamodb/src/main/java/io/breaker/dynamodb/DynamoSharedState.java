package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import io.breaker.spi.OutcomeBits;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spring.store.EventLoops;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * One breaker's link to its item in the table.
 *
 * <ul>
 * <li><b>No timer.</b> The first call that finds the breaker's clock past {@link #nextRefreshAt} wins
 *     a compare-and-set and hands one refresh to the store's pool, without waiting.</li>
 * <li><b>Answers in order.</b> Every answer is an item with its version; one older than the newest
 *     applied (same incarnation) is skipped, so a late refresh never moves the breaker back.</li>
 * <li><b>Successes in batches.</b> A success is counted in memory; the next refresh adds the batch to
 *     the fleet's window with one atomic ADD, if the window it was counted in is still current. The
 *     batch carries when its first success was counted: one older than the failures the current block
 *     received meanwhile counts as the previous block's calls, not as calls after those failures.</li>
 * <li><b>Reports kept until answered.</b> A failure report the table did not answer is kept (at most
 *     {@link #MAX_UNACKNOWLEDGED}) and sent again by the next refresh; reports are numbered and sent
 *     one at a time, so the table counts each once (see {@link FleetTable#report}).</li>
 * <li><b>A spent lease admits no second probe.</b> Once this instance reported its probe's outcome, an
 *     answer that still shows its lease (a refresh sent before) reads OPEN.</li>
 * </ul>
 */
final class DynamoSharedState implements SharedState {

    /** {@link #batchSince} while no success is counted. */
    private static final long NO_BATCH = Long.MAX_VALUE;
    /** At most this many unacknowledged failure reports are kept; past it the oldest is dropped. */
    static final int MAX_UNACKNOWLEDGED = 100;
    /**
     * A report first sent longer ago than this (by this instance's clock) without an answer is not sent
     * again: half the time after which the table forgets its sequence, which leaves the other half for
     * the clocks' skew and a request still in flight.
     */
    static final long RESEND_LIMIT_MILLIS = FleetTable.ENTRY_RETENTION_MILLIS / 2;

    private final DynamoStateStore store;
    private final FleetTable table;
    private final String name;
    private volatile BreakerConfig config;

    /** When (breaker clock) the cached state is due for a refresh; the caller whose CAS moves it refreshes. */
    private final AtomicLong nextRefreshAt = new AtomicLong();

    private volatile NanoClock clock = NanoClock.system();
    private volatile @Nullable Consumer<SharedVerdict> adopter;
    private final LongAdder successes = new LongAdder();
    /** When (wall clock, ms) the first success of the current batch was counted ({@link #NO_BATCH}: none yet). */
    private final AtomicLong batchSince = new AtomicLong(NO_BATCH);
    /** The window epoch in which the current batch of successes began (-1: not known yet). */
    private volatile long batchEpoch = -1;
    /**
     * Held to take the batch with its epoch, to put one back, and to switch {@link #batchEpoch}: a
     * batch counted in one window is never sent, or put back, as another window's. Never held by a
     * success.
     */
    private final Object batchLock = new Object();

    private final AtomicReference<@Nullable FleetItem> newest = new AtomicReference<>();
    /**
     * The HALF_OPEN item (incarnation and version) whose lease this instance spent: its probe's outcome
     * was reported. Versions start again in a new incarnation, so the version alone names no lease.
     */
    private volatile @Nullable Lease spentLease;
    /** A trip the local window made alone while the table was silent, until the table takes it or decides anew. */
    private final AtomicReference<@Nullable LocalTrip> localTrip = new AtomicReference<>();
    /**
     * Failure reports (with the successes batched with them) the table has not acknowledged, oldest
     * first, at most {@link #MAX_UNACKNOWLEDGED}: each refresh sends them again until it answers.
     */
    private final java.util.ArrayDeque<Report> unacknowledged = new java.util.ArrayDeque<>();
    /** Held while reports are sent, so that one instance's reports reach the table in order. */
    private final Object delivering = new Object();
    /** An operator change the table did not take yet, replayed by the next refresh. */
    private final AtomicReference<@Nullable Operator> pendingOperator = new AtomicReference<>();

    private volatile OperatorChange lastOperatorChange = OperatorChange.NOT_SENT;
    /** When (breaker clock) {@link #newest} was last set. */
    private volatile long newestAt;

    DynamoSharedState(DynamoStateStore store, String name, BreakerConfig config) {
        this.store = store;
        this.table = new FleetTable(store, name);
        this.name = name;
        this.config = config;
    }

    @Override
    public void reconfigure(BreakerConfig newConfig) {
        this.config = newConfig;
    }

    /** Connects, then refreshes at once: a new breaker learns the fleet's state without waiting for a call. */
    @Override
    public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {
        this.clock = clock;
        this.adopter = adopter;
        nextRefreshAt.set(clock.nanoTime());
        touch();
    }

    // ---------------------------------------------------------------- the call path

    @Override
    public void recordSuccess() {
        successes.increment();
        if (batchSince.get() == NO_BATCH) {
            batchSince.compareAndSet(NO_BATCH, store.nowMillis());
        }
        touch();
    }

    @Override
    public void touch() {
        long now = clock.nanoTime();
        long due = nextRefreshAt.get();
        if (now - due < 0) {
            return;
        }
        long next = now + store.ttlNanos();
        if (nextRefreshAt.compareAndSet(due, next) && !store.refreshSoon(this)) {
            nextRefreshAt.compareAndSet(next, due); // every refresh slot busy: the next call asks again
        }
    }

    @Override
    public @Nullable SharedVerdict recordFailure(CallOutcome outcome) {
        return recordFailure(outcome, -1L, WaitReason.CONFIGURED);
    }

    @Override
    public @Nullable SharedVerdict recordFailure(CallOutcome outcome, long waitNanos, WaitReason waitReason) {
        int bits = outcome == CallOutcome.SUCCESS ? 0 : OutcomeBits.of(outcome);
        if (bits == 0 || !store.isAvailable()) {
            return store.isAvailable() ? null : store.unavailable();
        }
        Batch batch = takeBatch();
        BreakerConfig current = config;
        long waitMillis = waitMillis(current, waitNanos);
        WaitReason reason = waitNanos >= 0 ? waitReason : WaitReason.CONFIGURED;
        keep(bits, batch.successes(), batch.epoch(), batch.since(), waitMillis, reason);
        return send(() -> deliver(current), false);
    }

    /** Keeps a failure report until the table acknowledges it. */
    private void keep(int bits, long batch, long epoch, long since, long waitMillis, WaitReason reason) {
        synchronized (unacknowledged) {
            unacknowledged.addLast(
                    new Report(new AtomicLong(), bits, batch, epoch, since, waitMillis, reason, new AtomicBoolean()));
            while (unacknowledged.size() > MAX_UNACKNOWLEDGED) {
                unacknowledged.removeFirst(); // the oldest go first: the newest say most about the dependency now
            }
        }
    }

    /**
     * On a command thread: sends every unacknowledged report in the order they were made, numbering
     * each when it is first sent, under {@link #delivering} (a report applied after one with a higher
     * sequence from the same instance would read as applied already), each removed once
     * the table answered it; a report counts in whichever window is current, one sent again after a
     * failed attempt only in the window it was made in. Returns the item after the last report, or a
     * read when another thread delivered them all meanwhile.
     */
    private FleetItem deliver(BreakerConfig current) {
        synchronized (delivering) {
            FleetItem item = null;
            while (true) {
                Report report;
                synchronized (unacknowledged) {
                    report = unacknowledged.peekFirst();
                }
                if (report == null || localTrip.get() != null) {
                    // A trip made alone goes to the table before any report (see keeping), with the reopen
                    // time it fixed. Having delivered none (another thread did), read: the item that
                    // thread got may not be applied yet.
                    return item != null ? item : table.read();
                }
                long numbered = report.sequence().get();
                if (numbered != 0L && FleetTable.numberedAt(numbered) < store.nowMillis() - RESEND_LIMIT_MILLIS) {
                    // Sent long ago without an answer: the table may have removed the entry that would
                    // recognise it as applied (see FleetTable.ENTRY_RETENTION_MILLIS), so it is given up.
                    synchronized (unacknowledged) {
                        unacknowledged.remove(report);
                    }
                    continue;
                }
                report.sequence().compareAndSet(0L, table.nextSequence());
                FleetItem known = item != null ? item : known();
                // Sent for the first time (or still unknown which window it was made in): it counts in the
                // current window, as any report sent when it happens; sent again, only in its own.
                long failureEpoch = report.failed().get() ? report.epoch() : -1L;
                FleetItem answered;
                try {
                    answered = table.report(
                            known,
                            current,
                            report.sequence().get(),
                            failureEpoch,
                            report.bits(),
                            report.successes(),
                            report.epoch(),
                            report.since(),
                            report.waitMillis(),
                            report.reason());
                } catch (RuntimeException unanswered) {
                    report.failed().set(true);
                    throw unanswered;
                }
                if (answered == null) {
                    // Other instances' writes won every attempt: kept, and sent again (only into its
                    // window) before anything else by the next refresh.
                    report.failed().set(true);
                    return known;
                }
                item = answered;
                synchronized (unacknowledged) {
                    unacknowledged.remove(report);
                }
                if (item.state() != State.CLOSED) {
                    dropReports(); // the window they were made in is gone: a report counts only in CLOSED
                    return item;
                }
            }
        }
    }

    /**
     * A batch of successes alone, numbered and sent under {@link #delivering}, in order with the failure
     * reports. One that other instances' writes kept from counting joins the next batch.
     */
    private FleetItem reportSuccesses(FleetItem known, BreakerConfig current, long batch, long epoch, long since) {
        synchronized (delivering) {
            FleetItem item = table.report(
                    known, current, table.nextSequence(), -1L, 0, batch, epoch, since, 0L, WaitReason.CONFIGURED);
            if (item != null) {
                return item;
            }
            synchronized (batchLock) {
                if (batchEpoch == epoch) {
                    successes.add(batch);
                    batchSince.accumulateAndGet(since, Math::min); // NO_BATCH is the largest long
                }
            }
            return known;
        }
    }

    private void dropReports() {
        synchronized (unacknowledged) {
            unacknowledged.clear();
        }
    }

    /** The instance's own window may trip it while the table is down or its last operations went unanswered. */
    @Override
    public boolean allowsLocalTrip() {
        return store.isSilent();
    }

    /**
     * The local window tripped the breaker while the table was silent: the trip holds against the
     * table's CLOSED of the version this instance knew (it is older than the trip), and the next
     * operation that gets an answer puts it to the table, its reopen time as the trip fixed it.
     */
    @Override
    public void trippedAlone(TransitionCause cause, long waitNanos, WaitReason waitReason) {
        long probeAt = store.nowMillis() + waitMillis(config, waitNanos);
        localTrip.set(new LocalTrip(newest.get(), cause, probeAt, waitReason));
    }

    @Override
    public @Nullable SharedVerdict tryAcquireProbe() {
        if (!store.isAvailable()) {
            return store.unavailable();
        }
        long lease = config.getProbeLease().toMillis();
        SharedVerdict verdict = send(() -> table.acquireProbe(lease), false);
        if (verdict != null) {
            return verdict;
        }
        // No answer in time: another instance may hold the lease. Never probe on a guess.
        return store.isAvailable()
                ? new SharedVerdict(State.OPEN, store.timeoutNanos(), TransitionCause.WAIT_ELAPSED)
                : store.unavailable();
    }

    @Override
    public @Nullable SharedVerdict probeFailed() {
        return probeFailed(SharedVerdict.UNKNOWN, -1L, WaitReason.CONFIGURED);
    }

    @Override
    public @Nullable SharedVerdict probeFailed(int failedProbes, long waitNanos, WaitReason waitReason) {
        spendLease();
        long waitMillis = waitMillis(config, waitNanos);
        WaitReason reason = waitNanos >= 0 ? waitReason : WaitReason.CONFIGURED;
        LocalTrip alone = localTrip.get();
        if (alone != null) { // a probe made alone failed: the trip holds, for the new wait
            localTrip.compareAndSet(
                    alone, new LocalTrip(alone.basedOn(), alone.cause(), store.nowMillis() + waitMillis, reason));
        }
        if (!store.isAvailable()) {
            return store.unavailable();
        }
        return send(() -> table.probeFailed(waitMillis, reason), false);
    }

    @Override
    public @Nullable SharedVerdict probesSucceeded() {
        spendLease();
        localTrip.set(null); // a trip made alone ends with its probes
        if (!store.isAvailable()) {
            return store.unavailable();
        }
        return send(table::close, false);
    }

    @Override
    public @Nullable SharedVerdict operatorSets(State target) {
        Operator change = new Operator(target, store.nowMillis());
        pendingOperator.set(change); // until the table takes it: the local breaker changes now, the fleet later
        lastOperatorChange = store.isAvailable() ? OperatorChange.UNANSWERED : OperatorChange.NOT_SENT;
        SharedVerdict verdict = send(
                () -> {
                    FleetTable.Forced forced = table.force(change.target(), change.atMillis());
                    settle(change, forced);
                    return forced.item();
                },
                false);
        return verdict;
    }

    /**
     * Clears the pending operator change once the table took it; one it could not take yet stays
     * pending for the next refresh.
     */
    private void settle(Operator change, FleetTable.Forced forced) {
        OperatorChange taken = forced.taken();
        if (taken == null) {
            return;
        }
        lastOperatorChange = taken;
        pendingOperator.compareAndSet(change, null);
    }

    /** What this instance's last operator change did to the fleet, as far as it knows. */
    OperatorChange lastOperatorChange() {
        return lastOperatorChange;
    }

    /** What an operator change through this instance did to the fleet's state. */
    enum OperatorChange {
        /** None yet, or not sent: the table was known to be unreachable (the next refresh sends it). */
        NOT_SENT,
        /** Sent, no answer yet: it may have been applied or not. */
        UNANSWERED,
        /** The table took it and the fleet's state changed. */
        CHANGED,
        /** The table answered, and the fleet's state did not change (already in it, or a newer action stands). */
        UNCHANGED
    }

    /** The fleet's state in the newest item applied, and how long ago it came; {@code null} before the first. */
    @Nullable
    Seen seen() {
        FleetItem item = newest.get();
        if (item == null) {
            return null;
        }
        State state = item.verdictFor(store.instanceId(), store.nowMillis()).state();
        return new Seen(state, java.time.Duration.ofNanos(Math.max(0, clock.nanoTime() - newestAt)));
    }

    /** The fleet's state as this instance last heard it, and the age of that answer. */
    record Seen(State state, java.time.Duration age) {}

    /** This breaker's item and the protocol's writes on it. */
    FleetTable table() {
        return table;
    }

    // ---------------------------------------------------------------- the pool's side

    /**
     * On a command thread: replays a pending operator change, sends the batch of successes, adopts the
     * state. Returns whether the table answered.
     */
    boolean refresh() {
        Operator pending = pendingOperator.get();
        if (pending != null) {
            FleetItem forced = store.run(
                    keeping(() -> {
                        FleetTable.Forced answer = table.force(pending.target(), pending.atMillis());
                        settle(pending, answer);
                        return answer.item();
                    }),
                    true,
                    null);
            if (forced == null) {
                return false;
            }
            adopt(accept(forced));
        }
        Batch taken = takeBatch();
        long batch = taken.successes();
        BreakerConfig current = config;
        boolean unanswered;
        long readAt = System.nanoTime();
        synchronized (unacknowledged) {
            unanswered = !unacknowledged.isEmpty() && localTrip.get() == null;
        }
        FleetItem item = store.run(
                keeping(() -> {
                    FleetItem known = unanswered ? deliver(current) : known();
                    FleetItem after = batch > 0 && known.state() == State.CLOSED
                            ? reportSuccesses(known, current, batch, taken.epoch(), taken.since())
                            : unanswered ? known : table.read();
                    long halfExpiry = store.getSettings().itemExpiry().toSeconds() / 2;
                    return after.expiresAt() - TimeUnit.MILLISECONDS.toSeconds(store.nowMillis()) < halfExpiry
                            ? table.renewExpiry()
                            : after;
                }),
                true,
                late -> adopt(accept(late)));
        adopt(accept(item));
        if (item != null) {
            store.refreshed(name, item, readAt);
        }
        return item != null;
    }

    /**
     * Reject while the table is down: the breaker reads OPEN, unless an operator forced it (a forced
     * state is the operator's, whatever the store does).
     */
    void holdOpen() {
        Operator pending = pendingOperator.get();
        FleetItem known = newest.get();
        boolean forced = (pending != null && pending.target().isForced())
                || (known != null && known.state().isForced());
        if (!forced) {
            adopt(store.unavailable());
        }
    }

    /** The table answers again after an outage: what was counted meanwhile belongs to no fleet window. */
    void storeRecovered() {
        dropBatch();
        nextRefreshAt.set(clock.nanoTime());
    }

    // ---------------------------------------------------------------- answers

    /** The newest item applied, or a strongly consistent read (on a command thread) before the first one. */
    private FleetItem known() {
        FleetItem item = newest.get();
        return item != null ? item : table.read();
    }

    private @Nullable SharedVerdict send(DynamoStateStore.Operation operation, boolean evenIfDown) {
        if (EventLoops.isCurrent()) {
            // An event loop never waits for the table: the local breaker decides now (a probe request
            // reads OPEN), and the table's answer is adopted when it comes.
            store.runDetached(keeping(operation), answer -> adopt(accept(answer)));
            return null;
        }
        FleetItem item = store.run(keeping(operation), evenIfDown, late -> adopt(accept(late)));
        return accept(item);
    }

    /**
     * The operation, then, if its answer is an item of another incarnation (the table lost the one this
     * instance knew), the state this instance remembers put back (see {@link FleetTable#putBack}).
     * Decided on the answer, never on a missing item: the read that found none created the new one.
     */
    private DynamoStateStore.Operation keeping(DynamoStateStore.Operation operation) {
        return () -> {
            FleetItem remembered = newest.get();
            FleetItem found = operation.run();
            FleetItem item = remembered == null ? found : table.putBack(remembered, found);
            LocalTrip alone = localTrip.get();
            return alone != null && !alone.overtakenBy(item)
                    ? table.tripAlone(item, alone.cause(), alone.probeAtMillis(), alone.reason())
                    : item;
        };
    }

    /** Applies an item in version order; returns the verdict to adopt, or {@code null} for an older answer. */
    private @Nullable SharedVerdict accept(@Nullable FleetItem item) {
        if (item == null) {
            return null;
        }
        while (true) {
            FleetItem current = newest.get();
            if (current != null
                    && current.incarnation().equals(item.incarnation())
                    && item.version() < current.version()) {
                return null; // overtaken by a newer answer
            }
            if (newest.compareAndSet(current, item)) {
                newestAt = clock.nanoTime();
                break;
            }
        }
        LocalTrip alone = localTrip.get();
        if (alone != null) {
            if (!alone.overtakenBy(item)) {
                return null; // older than the trip made alone: it holds until the table takes it
            }
            localTrip.compareAndSet(alone, null);
        }
        long epoch = item.window().epoch();
        if (batchEpoch != epoch) {
            synchronized (batchLock) {
                if (batchEpoch != epoch) {
                    dropBatch(); // counted in a window that is gone
                    batchEpoch = epoch;
                }
            }
        }
        SharedVerdict verdict = item.verdictFor(store.instanceId(), store.nowMillis());
        if (verdict.state() == State.HALF_OPEN && isSpent(item)) {
            return verdict.with(State.OPEN, verdict.remainingNanos()); // this lease's probe has ended
        }
        return verdict;
    }

    /**
     * Takes the successes counted so far with the epoch they were counted in. A success counted while
     * it runs joins this batch or the next, and a window change waits for it to end.
     */
    private Batch takeBatch() {
        synchronized (batchLock) {
            long since = batchSince.getAndSet(NO_BATCH);
            return new Batch(successes.sumThenReset(), batchEpoch, since);
        }
    }

    /** Forgets the successes counted so far (a success counted meanwhile starts the next batch no later). */
    private void dropBatch() {
        batchSince.set(NO_BATCH);
        successes.sumThenReset();
    }

    private void spendLease() {
        FleetItem item = newest.get();
        if (item != null && item.state() == State.HALF_OPEN) {
            spentLease = new Lease(item.incarnation(), item.version());
        }
    }

    private boolean isSpent(FleetItem item) {
        Lease spent = spentLease;
        return spent != null
                && spent.version() == item.version()
                && spent.incarnation().equals(item.incarnation());
    }

    private void adopt(@Nullable SharedVerdict verdict) {
        Consumer<SharedVerdict> target = adopter;
        if (target != null && verdict != null) {
            target.accept(verdict);
        }
    }

    /** The wait an opening write keeps: this instance's computed wait, or the configured one when negative. */
    private static long waitMillis(BreakerConfig config, long waitNanos) {
        return waitNanos >= 0
                ? Math.max(1L, TimeUnit.NANOSECONDS.toMillis(waitNanos))
                : config.getWaitDurationInOpenState().toMillis();
    }

    String name() {
        return name;
    }

    java.time.Duration probeLease() {
        return config.getProbeLease();
    }

    /** Successes counted in the window of {@code epoch}, the first at {@code since} (wall clock, ms). */
    private record Batch(long successes, long epoch, long since) {}

    /** An operator's change and when (wall clock, ms) it was made: the newest one wins in the table. */
    private record Operator(State target, long atMillis) {}

    /**
     * A failure report: its sequence (0 until first sent), the failed or slow call's bits, the successes batched with it
     * (counted in the window of {@code epoch}, the first at {@code since}), and the wait a trip opens for.
     */
    private record Report(
            AtomicLong sequence,
            int bits,
            long successes,
            long epoch,
            long since,
            long waitMillis,
            WaitReason reason,
            AtomicBoolean failed) {}

    /**
     * A trip the local window made alone, on the item this instance knew then ({@code basedOn}, null if
     * none), with the reopen time it fixed.
     */
    private record LocalTrip(
            @Nullable FleetItem basedOn, TransitionCause cause, long probeAtMillis, WaitReason reason) {

        /**
         * Whether {@code item} holds a decision newer than this trip: a state other than CLOSED, a
         * transition after the version the trip was made on, or a new item something happened to.
         */
        boolean overtakenBy(FleetItem item) {
            if (item.state() != State.CLOSED) {
                return true;
            }
            if (basedOn == null || !basedOn.incarnation().equals(item.incarnation())) {
                return item.version() > 1;
            }
            return item.version() > basedOn.version();
        }
    }

    /** A probe lease: the HALF_OPEN item that granted it. */
    private record Lease(String incarnation, long version) {}
}
