package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import io.breaker.spi.OutcomeBits;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spring.store.EventLoops;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.script.RedisScript;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One breaker's link to its shared state in Redis. Keys: {@code {breaker:<name>}:state} (a hash),
 * {@code :window} and {@code :ring} (the shared window) and {@code :ack:<instance>} (the newest
 * report of this instance that Redis applied); the hash tag puts them in one Redis Cluster slot.
 *
 * <p>The rules it keeps (see common.lua for the scripts' side):
 * <ul>
 * <li><b>No timer.</b> The cached state is refreshed from calls: the first call that finds the
 *     breaker's clock past {@link #nextRefreshAt} wins a compare-and-set and hands one refresh to the
 *     store's command pool, without waiting. A success looks at the clock only every
 *     {@code checkMask + 1} successes of its stripe (see {@link #recordSuccess()}); every other
 *     call that reaches the store looks each time.</li>
 * <li><b>Answers in order.</b> Every answer carries the shared state's incarnation and version. One
 *     older than the newest applied is skipped, unless its request was sent after that newest answer
 *     came (then Redis itself went back: it is applied).</li>
 * <li><b>Reports are not lost.</b> A failure, and the successes counted before it, become a
 *     numbered report kept until Redis acknowledges it; a report that timed out is sent again with
 *     the next one, and Redis skips what it already applied. Successes carry the window position at
 *     which they began to be counted, so that a late batch never pushes out newer failures.</li>
 * <li><b>A lost state is put back.</b> An answer of a new incarnation means Redis lost the state; an
 *     instance that remembers OPEN, its own probe lease or a forced state seeds it again (see
 *     seed.lua) instead of adopting the empty CLOSED.</li>
 * <li><b>Never block a thread that must deliver the answer.</b> On a Redis client's or Reactor's
 *     event loop, transitions and reports are sent without waiting; their answers are adopted when
 *     they come.</li>
 * </ul>
 */
final class RedisSharedState implements SharedState {

    private static final Log LOG = LogFactory.getLog(RedisStateStore.class);
    /** Reports kept for sending again at most; beyond that the oldest are dropped (Redis is very slow). */
    private static final int MAX_UNACKED = 256;
    /** Where ARGV[7], the wait in OPEN, is in the arguments of a script (see common.lua). */
    private static final int WAIT_ARG = 6;
    /** Values per report in report.lua's arguments. */
    private static final int REPORT_ARGS = 8;

    private final ScriptStore store;
    private final BreakerScripts scripts;
    private final String name;
    private final List<String> keys;
    /** The probe lease: how long a probe may run before another instance may take its place. */
    private volatile long leaseNanos;
    /** ARGV[1..9] of every script (see common.lua); replaced whole when the settings change at runtime. */
    private volatile String[] common;
    /**
     * When (on the breaker's clock) the cached state is due for a refresh. Read on the call path with a
     * volatile read; only the caller whose CAS moves it ahead refreshes, so due calls race harmlessly.
     */
    private final AtomicLong nextRefreshAt = new AtomicLong();
    /** The breaker's clock (given by {@link #connect}); written once, before any call can read it. */
    private volatile NanoClock clock = NanoClock.system();

    private volatile @Nullable Consumer<SharedVerdict> adopter;

    /** Successes counted since the last report: counted on the call path, sent in one batch. */
    private final SuccessCounter successes = new SuccessCounter();
    /**
     * A success looks at the clock when its stripe's count is a multiple of {@code checkMask + 1}: 1
     * (every success) up to {@link #MAX_CHECK_MASK} + 1. The mask doubles while the clock checks come
     * less than 1/16 of a TTL apart, and falls back to 0 as soon as one comes more than 1/4 of a TTL
     * after the previous one. Plain fields: a lost or torn update only mis-sizes one step.
     */
    private int checkMask;
    /** When (breaker's clock) a success last looked at the clock. */
    private long lastCheckAt;
    /** At full speed the clock is read once per 32 successes of a stripe: about 1 ns per call. */
    static final int MAX_CHECK_MASK = 31;
    /** Where in the fleet's window the current batch of successes began (null: never heard from Redis). */
    private volatile @Nullable Position batchStart;

    private final AtomicLong reportNumbers = new AtomicLong();
    private final ConcurrentLinkedDeque<Report> unacked = new ConcurrentLinkedDeque<>();

    /** The newest answer applied, and the numbers that order answers against it. */
    private final AtomicReference<@Nullable Applied> newest = new AtomicReference<>();

    private final AtomicLong receipts = new AtomicLong();

    /**
     * Incarnations this instance applied and then left for another one (Redis lost them): a late
     * answer of one of them is from a state that is gone, not a new one (the newest few are kept).
     */
    private final ConcurrentLinkedDeque<String> leftIncarnations = new ConcurrentLinkedDeque<>();

    private static final int LEFT_INCARNATIONS = 8;

    /**
     * The probe lease (incarnation and version of the answer that granted it) whose probe outcome this
     * instance has reported: an answer that hands the same lease back (a refresh sent before the
     * outcome reached Redis, or an outcome report that got no answer in time) must not start a second
     * probe under it.
     */
    private volatile @Nullable Lease spentLease;

    /** Whether the last operator change through this instance changed the fleet (null: Redis did not answer it). */
    private volatile Boolean lastOperatorChangedFleet;
    /** Whether the last operator change through this instance was sent to Redis and got no answer in time. */
    private volatile boolean lastOperatorUnanswered;

    /** An operator change Redis could not take yet: replayed when it answers again. */
    private final AtomicReference<@Nullable OperatorChange> pendingOperator = new AtomicReference<>();

    RedisSharedState(ScriptStore store, String name, BreakerConfig config) {
        this.store = store;
        this.scripts = store.scripts();
        this.name = name;
        String tag = "{breaker:" + name + "}";
        this.keys = List.of(tag + ":state", tag + ":window", tag + ":ring", tag + ":ack:" + store.instanceIdArg());
        reconfigure(config);
    }

    /** The breaker's settings changed at runtime: the next scripts carry the new ones (see common.lua's window). */
    @Override
    public void reconfigure(BreakerConfig config) {
        this.leaseNanos = config.getProbeLease().toNanos();
        this.common = new String[] {
            store.instanceIdArg(),
            config.getSlidingWindowType() == SlidingWindowType.COUNT_BASED ? "C" : "T",
            Integer.toString(config.getSlidingWindowSize()),
            Integer.toString(config.getMinimumNumberOfCalls()),
            Float.toString(config.getFailureRateThreshold()),
            Float.toString(config.getSlowCallRateThreshold()),
            Long.toString(config.getWaitDurationInOpenState().toMillis()),
            Long.toString(config.getProbeLease().toMillis()),
            Long.toString(keyExpiryMillis(config))
        };
    }

    /**
     * The keys' expiry: the store's, or if the breaker may stay OPEN longer (its longest wait, which a
     * Retry-After or the backoff may reach, plus a probe lease), that long, so an OPEN fleet nobody
     * calls is never cleaned up before its probe is due.
     */
    private long keyExpiryMillis(BreakerConfig config) {
        long longest;
        try {
            longest = Math.addExact(
                    config.longestWaitInOpenState().toMillis(),
                    config.getProbeLease().toMillis());
        } catch (ArithmeticException beyondALong) {
            longest = Long.MAX_VALUE;
        }
        return Math.max(store.keyExpiryMillis(), longest);
    }

    /** The fleet's state in the newest answer applied, and how long ago it came; null before the first. */
    @Nullable
    FleetSeen fleetSeen() {
        Applied known = newest.get();
        return known == null
                ? null
                : new FleetSeen(
                        known.answer().verdict().state(), Duration.ofNanos(clock.nanoTime() - known.receivedNanos()));
    }

    /** Connects, then syncs once at once: a new breaker learns the fleet's state without waiting for a call. */
    @Override
    public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {
        this.clock = clock;
        this.adopter = adopter;
        checkMask = 0;
        nextRefreshAt.set(clock.nanoTime());
        touch();
    }

    // ---------------------------------------------------------------- the call path

    /**
     * A success: counted, and only every {@code checkMask + 1} successes of its stripe does it read
     * the clock to see whether the cached state is due. Reading it on every success cost more than
     * the rest of an in-memory call (a clock reading is about 30 ns, the call about 7 ns); now a
     * healthy call at full speed pays about 1 ns for it. The refresh is still started within one
     * TTL by steady traffic (the mask stays small enough for a check every 1/16 to 1/8 of a TTL);
     * when the traffic falls abruptly from fast to a trickle, the first refresh may come up to
     * {@code MAX_CHECK_MASK + 1} successes of a stripe after it was due, once (then the mask is 0 again).
     */
    @Override
    public void recordSuccess() {
        int mask = checkMask;
        if ((successes.increment() & mask) != 0) {
            return;
        }
        long now = clock.nanoTime();
        long since = now - lastCheckAt;
        lastCheckAt = now;
        long ttl = store.ttlNanos();
        if (since < ttl >> 4) {
            if (mask < MAX_CHECK_MASK) {
                checkMask = mask << 1 | 1;
            }
        } else if (since > ttl >> 2) {
            checkMask = 0;
        }
        touch(now);
    }

    /**
     * On the call path: if the cached state is older than one cache TTL, exactly one caller starts a
     * refresh on the store's pool; nobody waits for it. Costs a clock read and a volatile read otherwise.
     */
    @Override
    public void touch() {
        touch(clock.nanoTime());
    }

    private void touch(long now) {
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

    /**
     * Reports the failure; should it trip the fleet, Redis opens it for {@code waitNanos} (the wait
     * this instance computed for it: jitter, Retry-After), or the configured wait when negative.
     */
    @Override
    public @Nullable SharedVerdict recordFailure(CallOutcome outcome, long waitNanos, WaitReason waitReason) {
        int bits = outcome == CallOutcome.SUCCESS ? 0 : OutcomeBits.of(outcome); // 0: nothing to report
        if (bits == 0 || !store.isAvailable()) {
            return store.isAvailable() ? null : store.unavailable();
        }
        String[] args = withWait(reportArgs(bits), waitNanos, waitReason);
        if (EventLoops.isCurrent()) {
            send(scripts.report, args, true);
            return null;
        }
        return send(scripts.report, args, false);
    }

    /**
     * The instance's own window may trip it while Redis is down, and also while its last operations
     * go unanswered (before that is an outage): protection never waits for a silent store. The
     * fleet's state, when its answers come, is adopted as usual.
     */
    @Override
    public boolean allowsLocalTrip() {
        return store.isSilent();
    }

    @Override
    public @Nullable SharedVerdict tryAcquireProbe() {
        if (!store.isAvailable()) {
            return store.unavailable();
        }
        if (EventLoops.isCurrent()) {
            send(scripts.acquireProbe, args(), true); // a won lease moves the breaker to HALF_OPEN when it comes
            return stayOpen();
        }
        SharedVerdict verdict = send(scripts.acquireProbe, args(), false);
        if (verdict != null) {
            return verdict;
        }
        // No answer in time, but Redis is up (or this caller was interrupted): another instance may
        // hold the lease. Never probe on a guess; the answer, if it comes, is adopted.
        return store.isAvailable() ? stayOpen() : store.unavailable();
    }

    @Override
    public @Nullable SharedVerdict probeFailed() {
        spendLease();
        return transition(scripts.probeFailed, args());
    }

    /**
     * Reopens the fleet for {@code waitNanos}, the wait this instance computed from the fleet's count
     * of failed probes (this one included): Redis counts the failed probe and keeps that wait, so every
     * instance waits for the same reopen time.
     */
    @Override
    public @Nullable SharedVerdict probeFailed(int failedProbes, long waitNanos, WaitReason waitReason) {
        spendLease();
        return transition(scripts.probeFailed, withWait(args(), waitNanos, waitReason));
    }

    @Override
    public @Nullable SharedVerdict probesSucceeded() {
        spendLease();
        return transition(scripts.close, args());
    }

    /** The probe under this instance's lease ended: the lease admits no other probe. */
    private void spendLease() {
        Applied known = newest.get();
        if (known != null && known.answer().verdict().state() == State.HALF_OPEN) {
            spentLease = new Lease(known.answer().incarnation(), known.answer().version());
        }
    }

    private boolean isSpent(RedisStateStore.Answer answer) {
        Lease spent = spentLease;
        return answer.verdict().state() == State.HALF_OPEN
                && spent != null
                && spent.incarnation().equals(answer.incarnation())
                && spent.version() == answer.version();
    }

    @Override
    public @Nullable SharedVerdict operatorSets(State target) {
        OperatorChange change = new OperatorChange(target, store.currentTimeMillis());
        pendingOperator.set(change); // until Redis takes it: the local breaker changes now, the fleet later
        lastOperatorChangedFleet = null;
        lastOperatorUnanswered = false;
        boolean sending = store.isAvailable(); // when Redis is known to be down, run() does not send it
        long sentAfter = receipts.get();
        long sentAt = clock.nanoTime();
        RedisStateStore.Answer answer = store.run(
                scripts.force,
                keys,
                args(target.name(), Long.toString(change.atMillis())),
                false,
                late -> adopt(accept(late, sentAfter, sentAt)));
        if (answer != null) {
            lastOperatorChangedFleet = answer.changed();
        } else {
            lastOperatorUnanswered = sending;
        }
        SharedVerdict verdict = answer == null ? null : accept(answer, sentAfter, sentAt);
        if (verdict != null) {
            pendingOperator.compareAndSet(change, null);
        }
        return verdict;
    }

    /** Whether the last operator change through this instance changed the fleet; null if Redis did not answer it. */
    @Nullable
    Boolean lastOperatorChangeChangedFleet() {
        return lastOperatorChangedFleet;
    }

    /** Whether the last operator change through this instance was sent and got no answer in time. */
    boolean lastOperatorChangeUnanswered() {
        return lastOperatorUnanswered;
    }

    String name() {
        return name;
    }

    /** A probe's outcome: waits for the fleet's answer, unless on an event loop (then the local breaker decides now). */
    private @Nullable SharedVerdict transition(RedisScript<List> script, String[] args) {
        if (!store.isAvailable()) {
            return store.unavailable();
        }
        if (EventLoops.isCurrent()) {
            send(script, args, true);
            return null;
        }
        return send(script, args, false);
    }

    /** OPEN for one store timeout: the caller is rejected and the next one asks again. */
    private SharedVerdict stayOpen() {
        return new SharedVerdict(State.OPEN, store.timeoutNanos(), TransitionCause.WAIT_ELAPSED);
    }

    // ---------------------------------------------------------------- the command pool's side

    /**
     * On a command thread, started by {@link #touch()}: replays a pending operator change, then sends
     * the reports and successes not yet acknowledged, and adopts the fleet's state. Returns
     * {@code false} if Redis gave no answer.
     */
    boolean refresh() {
        OperatorChange pending = pendingOperator.get();
        if (pending != null) {
            long sentAfter = receipts.get();
            long sentAt = clock.nanoTime();
            RedisStateStore.Answer answer = store.run(
                    scripts.force,
                    keys,
                    args(pending.target().name(), Long.toString(pending.atMillis())),
                    true,
                    late -> adopt(accept(late, sentAfter, sentAt)));
            if (answer == null) {
                return false;
            }
            pendingOperator.compareAndSet(pending, null);
            adopt(accept(answer, sentAfter, sentAt));
        }
        long sentAfter = receipts.get();
        long sentAt = clock.nanoTime();
        RedisStateStore.Answer answer =
                store.run(scripts.report, keys, reportArgs(0), true, late -> adopt(accept(late, sentAfter, sentAt)));
        if (answer == null) {
            return false;
        }
        adopt(accept(answer, sentAfter, sentAt));
        return true;
    }

    /**
     * Redis answers again after an outage: what was counted meanwhile belongs to no window the fleet
     * still has (the local breaker counted it), so it is dropped; the next call refreshes at once,
     * replaying a pending operator change first.
     */
    void storeRecovered() {
        successes.sumThenReset();
        unacked.clear();
        checkMask = 0;
        nextRefreshAt.set(clock.nanoTime());
    }

    /**
     * Reject while Redis is down: the breaker reads OPEN, unless an operator forced it (a forced state
     * is the operator's, whatever the store does).
     */
    void holdOpen() {
        OperatorChange pending = pendingOperator.get();
        Applied known = newest.get();
        boolean forced = (pending != null && pending.target().isForced())
                || (known != null && known.answer().verdict().state().isForced());
        if (!forced) {
            adopt(store.unavailable());
        }
    }

    // ---------------------------------------------------------------- sending and answers

    /**
     * Sends one script. Waiting: returns the verdict to adopt, or {@code null} (no answer in time, or
     * one older than what was applied). Not waiting: returns {@code null}, and the answer is adopted
     * when it comes. Either way a late answer is not lost.
     */
    private @Nullable SharedVerdict send(RedisScript<List> script, String[] args, boolean async) {
        long sentAfter = receipts.get();
        long sentAt = clock.nanoTime();
        if (async) {
            store.runAsync(script, keys, args, answer -> adopt(accept(answer, sentAfter, sentAt)));
            return null;
        }
        RedisStateStore.Answer answer =
                store.run(script, keys, args, false, late -> adopt(accept(late, sentAfter, sentAt)));
        return answer == null ? null : accept(answer, sentAfter, sentAt);
    }

    /**
     * Applies an answer in order; returns the verdict to adopt, or {@code null} to adopt nothing. An
     * answer of a new incarnation (Redis lost the state) first seeds the state this instance remembers.
     */
    private @Nullable SharedVerdict accept(RedisStateStore.@Nullable Answer answer, long sentAfter, long sentAtNanos) {
        if (answer == null) {
            return null;
        }
        unacked.removeIf(report -> report.number() <= answer.acked());
        while (true) {
            Applied current = newest.get();
            RedisStateStore.Answer applying = answer;
            boolean seedUnconfirmed = false;
            if (current != null) {
                boolean sameIncarnation = current.answer().incarnation().equals(answer.incarnation());
                if (sameIncarnation && answer.version() < current.answer().version() && sentAfter < current.receipt()) {
                    return null; // overtaken by a newer answer: applying it would move the breaker back
                }
                if (!sameIncarnation
                        && sentAfter < current.receipt()
                        && leftIncarnations.contains(answer.incarnation())) {
                    return null; // from a state Redis has lost since, and this instance has left: not a new one
                }
                if (!sameIncarnation || stillToSeed(current, answer)) {
                    Seeding seeding = seed(current, answer);
                    applying = seeding.answer();
                    seedUnconfirmed = seeding.unconfirmed();
                }
            }
            Applied next = new Applied(applying, clock.nanoTime(), receipts.incrementAndGet(), seedUnconfirmed);
            if (newest.compareAndSet(current, next)) {
                if (current != null && !current.answer().incarnation().equals(applying.incarnation())) {
                    leftIncarnations.addLast(current.answer().incarnation());
                    while (leftIncarnations.size() > LEFT_INCARNATIONS) {
                        leftIncarnations.pollFirst();
                    }
                }
                if (batchStart == null) {
                    batchStart = new Position(applying.incarnation(), applying.windowEpoch(), applying.windowSeq());
                }
                OperatorChange pending = pendingOperator.get();
                if (pending != null) {
                    if (applying.operatorAt() < pending.atMillis()) {
                        return null; // the fleet has not seen this instance's operator change yet: keep it
                    }
                    pendingOperator.compareAndSet(pending, null); // taken (or overtaken by a newer one)
                }
                if (isSpent(applying)) {
                    // This instance's probe under that lease has ended: nobody probes until the lease runs out.
                    return applying.verdict()
                            .with(State.OPEN, applying.verdict().remainingNanos());
                }
                if (applying.verdict().state() == State.HALF_OPEN) {
                    // The lease's time left, counted from when the request was sent: an answer delivered
                    // late must not extend it (its lease may have run out, and another instance may hold the next).
                    long left = applying.verdict().remainingNanos() - (clock.nanoTime() - sentAtNanos);
                    return left > 0
                            ? applying.verdict().with(State.HALF_OPEN, left)
                            : applying.verdict().with(State.OPEN, 0L);
                }
                return applying.verdict();
            }
        }
    }

    /**
     * Whether the remembered state this instance kept while its seed got no answer is still missing
     * from Redis: then it is put back again, rather than adopting the lost state's empty CLOSED (the
     * seed may never have reached Redis; seed.lua's writes are conditional, so seeding twice is safe).
     * Missing: the operator action behind it (its time), or for OPEN or a lease, while nothing has
     * happened in the new state (still fresh and CLOSED).
     */
    private static boolean stillToSeed(Applied current, RedisStateStore.Answer answer) {
        if (!current.seedUnconfirmed()) {
            return false;
        }
        RedisStateStore.Answer remembered = current.answer();
        if (answer.operatorAt() < remembered.operatorAt()) {
            return true; // Redis has not seen the operator action behind the remembered state
        }
        State state = remembered.verdict().state();
        return (state == State.OPEN || state == State.HALF_OPEN)
                && answer.fresh()
                && answer.verdict().state() == State.CLOSED;
    }

    /**
     * Redis lost the state (a new incarnation): an instance that remembers a state worth keeping puts
     * it back. Returns the answer to apply: the seed's, or the fresh one when there is nothing to put
     * back, or (while the seed's answer is not here: it timed out, or was sent without waiting) the
     * remembered state in the new incarnation, marked unconfirmed so that the next answer that still
     * lacks it seeds again (see {@link #stillToSeed}).
     */
    private Seeding seed(Applied remembered, RedisStateStore.Answer fresh) {
        SharedVerdict known = remembered.answer().verdict();
        State state = known.state();
        if (state == State.CLOSED && remembered.answer().operatorAt() <= fresh.operatorAt()) {
            return new Seeding(
                    fresh, false); // nothing to put back (a CLOSED after an operator's release puts its time back)
        }
        long remainingNanos = Math.max(0L, known.remainingNanos() - (clock.nanoTime() - remembered.receivedNanos()));
        if (state == State.HALF_OPEN && (remainingNanos == 0 || isSpent(remembered.answer()))) {
            state = State.OPEN; // this instance's lease ran out meanwhile (a probe is due), or its probe ended
        }
        if (state == State.OPEN && remainingNanos <= store.timeoutNanos()) {
            // The wait was over (as far as this instance knows): another instance may hold a probe
            // lease that Redis lost, with its probe in flight. Until that lease would have run out,
            // nobody may start another probe; the holder, if alive, puts its lease back meanwhile.
            remainingNanos = leaseNanos;
        }
        long remainingMillis = TimeUnit.NANOSECONDS.toMillis(remainingNanos);
        String[] args = args(
                state.name(),
                Long.toString(remainingMillis),
                Long.toString(remembered.answer().operatorAt()));
        LOG.warn("Breaker state store lost the shared state: store=redis breaker=" + name + " cause="
                + TransitionCause.STORE_RESET + " remembered=" + state + " remainingMs=" + remainingMillis
                + "; putting it back from this instance's memory (a lost state never closes the fleet)");
        if (!EventLoops.isCurrent()) {
            RedisStateStore.Answer seeded = store.run(scripts.seed, keys, args, true, null);
            if (seeded != null && seeded.incarnation().equals(fresh.incarnation())) {
                return new Seeding(seeded, false);
            }
        } else {
            long sentAt = clock.nanoTime();
            store.runAsync(scripts.seed, keys, args, answer -> adopt(accept(answer, receipts.get(), sentAt)));
        }
        // The seed's answer is not here (yet): keep the remembered state, in the new incarnation.
        return new Seeding(
                new RedisStateStore.Answer(
                        new SharedVerdict(state, remainingNanos, TransitionCause.STORE_RESET),
                        fresh.version(),
                        fresh.incarnation(),
                        fresh.windowEpoch(),
                        fresh.windowSeq(),
                        fresh.acked(),
                        remembered.answer().operatorAt(),
                        fresh.fresh(),
                        false),
                true);
    }

    /** What seeding gives: the answer to apply, and whether it is only the remembered state (no seed answer yet). */
    private record Seeding(RedisStateStore.Answer answer, boolean unconfirmed) {}

    private void adopt(@Nullable SharedVerdict verdict) {
        Consumer<SharedVerdict> target = adopter;
        if (target != null && verdict != null) {
            target.accept(verdict);
        }
    }

    /**
     * report.lua's arguments: every report not acknowledged yet, plus a new one carrying {@code bits}
     * (a failed or slow call, or 0) and the successes counted since the last report.
     */
    private String[] reportArgs(int bits) {
        long batch = successes.sumThenReset();
        Position start = batchStart;
        Applied known = newest.get();
        Position now = known == null
                ? null
                : new Position(
                        known.answer().incarnation(),
                        known.answer().windowEpoch(),
                        known.answer().windowSeq());
        if (bits != 0 || batch > 0) {
            unacked.addLast(new Report(reportNumbers.incrementAndGet(), bits, batch, start, now));
            while (unacked.size() > MAX_UNACKED) {
                unacked.pollFirst();
            }
        }
        batchStart = now; // the next batch begins here (or later: placed no further forward than this)
        List<Report> reports = new ArrayList<>(unacked);
        String[] own = new String[1 + reports.size() * REPORT_ARGS];
        own[0] = Integer.toString(reports.size());
        int i = 1;
        for (Report report : reports) {
            own[i++] = Long.toString(report.number());
            own[i++] = Integer.toString(report.bits());
            own[i++] = Long.toString(report.successes());
            own[i++] =
                    report.successesFrom() == null ? "" : report.successesFrom().incarnation();
            own[i++] = report.successesFrom() == null
                    ? "0"
                    : Long.toString(report.successesFrom().epoch());
            own[i++] = report.successesFrom() == null
                    ? "0"
                    : Long.toString(report.successesFrom().seq());
            own[i++] = report.reportedIn() == null ? "" : report.reportedIn().incarnation();
            own[i++] = report.reportedIn() == null
                    ? "0"
                    : Long.toString(report.reportedIn().epoch());
        }
        return args(own);
    }

    /**
     * {@code args} with ARGV[7], the wait the script opens the fleet for if it opens it, set to
     * {@code waitNanos} (in ms, at least 1) and its reason (see common.lua); negative keeps the configured wait.
     */
    private static String[] withWait(String[] args, long waitNanos, WaitReason reason) {
        if (waitNanos >= 0) {
            args[WAIT_ARG] = Math.max(1L, TimeUnit.NANOSECONDS.toMillis(waitNanos)) + ":" + reason.name();
        }
        return args;
    }

    private String[] args(String... own) {
        String[] base = common; // one read: the settings may be replaced meanwhile
        String[] all = new String[base.length + own.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(own, 0, all, base.length, own.length);
        return all;
    }

    /** A place in the fleet's window: which incarnation and epoch, and how many outcomes it held. */
    private record Position(String incarnation, long epoch, long seq) {}

    /**
     * One report: a failed or slow call ({@code bits}, 0 for none), the successes counted before it
     * and where they began, and the window the instance knew when it reported.
     */
    private record Report(
            long number,
            int bits,
            long successes,
            @Nullable Position successesFrom,
            @Nullable Position reportedIn) {}

    /**
     * An applied answer, when it came (breaker clock), its receipt number (orders requests against it),
     * and whether it is a remembered state whose seed Redis has not confirmed yet.
     */
    private record Applied(RedisStateStore.Answer answer, long receivedNanos, long receipt, boolean seedUnconfirmed) {}

    /** A probe lease, by the answer that granted it. */
    private record Lease(String incarnation, long version) {}

    /** An operator's change and when (wall clock, ms) it was made: the newest one wins in Redis. */
    private record OperatorChange(State target, long atMillis) {}
}
