package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.WaitReason;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.springframework.data.redis.core.script.RedisScript;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One fleet in the model: three instances, each a real {@link CircuitBreaker} with a real
 * {@link RedisSharedState}, sharing a {@link LuaRedis} that runs the real scripts. Nothing runs on
 * its own: every step is one {@link Op}, chosen by the explorer. Which script answers in time, which
 * one times out (and then runs in Redis, and is answered, whenever the explorer says), what Redis
 * loses and when time passes are all steps. After each step the invariants are checked; a broken one
 * is recorded in {@link #violations}.
 *
 * <p>A world cannot be copied (the breakers are real objects); the explorer rebuilds one by replaying
 * the steps that led to it, which is deterministic.
 */
final class FleetWorld {

    // ---------------------------------------------------------------- the configuration modelled

    static final int INSTANCES = 3;
    static final long WAIT_MS = 200;
    static final long LEASE_MS = 200;
    /** "Time passes the wait": a step a little longer than the wait (and the lease). */
    static final long STEP_MS = 250;

    static final long TIMEOUT_MS = 50;
    static final long EXPIRY_MS = 3_600_000;
    /** Redis's clock at the start (ms); the breakers' clocks read the same time in nanoseconds. */
    static final long START_MS = 1_700_000_000_000L;
    /** Threshold: two failures in a window of two trip. */
    static final int THRESHOLD = 2;

    static final String NAME = "fleet";
    static final String TAG = "{breaker:" + NAME + "}";
    static final String STATE_KEY = TAG + ":state";

    static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 2)
            .minimumNumberOfCalls(2)
            .failureRateThreshold(100)
            .waitDurationInOpenState(Duration.ofMillis(WAIT_MS))
            .probeLease(Duration.ofMillis(LEASE_MS))
            .permittedCallsInHalfOpenState(1)
            .build();

    /**
     * {@link #CONFIG} with backoff: each failed probe doubles the wait (200, 400 ms), capped at
     * {@link #MAX_WAIT_MS}; one time step (250 ms) then no longer ends a grown wait, two do.
     */
    static final long MAX_WAIT_MS = 400;

    static final BreakerConfig BACKOFF_CONFIG = CONFIG.toBuilder()
            .waitMultiplier(2)
            .maxWaitDurationInOpenState(Duration.ofMillis(MAX_WAIT_MS))
            .build();

    static final State[] TARGETS = {State.FORCED_OPEN, State.FORCED_CLOSED, State.CLOSED};
    static final String[] SCRIPT_NAMES = {"report", "acquire-probe", "probe-failed", "close", "force", "seed"};

    // ---------------------------------------------------------------- steps

    enum Kind {
        /** A call admitted and answered at once, successfully. */
        CALL_OK,
        /** A call admitted and answered at once, failing. */
        CALL_FAIL,
        /** A call admitted that stays in flight (a slow call). */
        START,
        /** The call in flight ends successfully. */
        END_OK,
        /** The call in flight fails. */
        END_FAIL,
        /** The cached state's refresh runs (on the store's pool). */
        REFRESH,
        /** An operator forces (arg: index in TARGETS) through this instance. */
        OPERATOR,
        /** Time passes the wait (STEP_MS). */
        TIME,
        /** Redis loses every key (restart without persistence, FLUSHALL). */
        LOSE,
        /** Redis runs a request whose caller stopped waiting (arg: its id). */
        EXEC,
        /** The answer of such a request arrives, late (arg: its id). */
        DELIVER
    }

    /**
     * One step. {@code timeout}: 0, every script of the step answers in time; k > 0, the step's k-th
     * script call times out (its request stays pending: Redis may run it later, and its answer may
     * arrive later still, or never).
     */
    record Op(Kind kind, int instance, int arg, int timeout) {

        Op withTimeout(int k) {
            return new Op(kind, instance, arg, k);
        }

        @Override
        public String toString() {
            String who = instance >= 0 ? "i" + instance + " " : "";
            String what = switch (kind) {
                case CALL_OK -> "call succeeds";
                case CALL_FAIL -> "call fails";
                case START -> "call starts (slow)";
                case END_OK -> "slow call succeeds";
                case END_FAIL -> "slow call fails";
                case REFRESH -> "refresh";
                case OPERATOR -> "operator sets " + TARGETS[arg];
                case TIME -> "time passes the wait (+" + STEP_MS + "ms)";
                case LOSE -> "Redis loses its state";
                case EXEC -> "Redis runs late request #" + arg;
                case DELIVER -> "late answer #" + arg + " arrives";
            };
            return who + what + (timeout > 0 ? " [script call " + timeout + " times out]" : "");
        }
    }

    /** Which steps the explorer may take, and how much may be pending at once. */
    record Rules(
            boolean successes,
            boolean slowCalls,
            boolean operator,
            int operatorInstances,
            boolean time,
            boolean lose,
            boolean failureReportsTimeOut,
            boolean otherTimeouts,
            int maxPending,
            boolean countDependencyCalls,
            boolean backoff) {

        /** Every kind of step: calls, slow calls, operator changes, time, a lost Redis and every timeout. */
        static Rules all(int maxPending) {
            return new Rules(true, true, true, 2, true, true, true, true, maxPending, false, false);
        }

        /** The dependency fails every call; failure reports are answered in time (see docs/fleet-model.md). */
        static Rules failingDependency(int maxPending) {
            return new Rules(false, true, false, 0, true, false, false, true, maxPending, true, false);
        }

        /** These rules with the breakers of {@link #BACKOFF_CONFIG}: each failed probe doubles the wait, up to its cap. */
        Rules withBackoff() {
            return new Rules(
                    successes,
                    slowCalls,
                    operator,
                    operatorInstances,
                    time,
                    lose,
                    failureReportsTimeOut,
                    otherTimeouts,
                    maxPending,
                    countDependencyCalls,
                    true);
        }

        BreakerConfig config() {
            return backoff ? BACKOFF_CONFIG : CONFIG;
        }
    }

    /** A mutation of one script's text (the model's Redis runs the mutated text). */
    record Mutation(String script, String from, String to) {}

    // ---------------------------------------------------------------- state

    final Rules rules;
    final List<Mutation> mutations;
    long now = START_MS;
    private long wallTicks;
    final LuaRedis redis = new LuaRedis(() -> now);
    final Inst[] inst = new Inst[INSTANCES];
    final List<Pending> pending = new ArrayList<>();
    private int nextPendingId;
    static final BreakerScripts SCRIPTS = new BreakerScripts();
    /** The text Redis runs for each script (common.lua + the script), by name. */
    static final Map<String, String> SCRIPTS_BY_NAME = Map.of(
            "report",
            SCRIPTS.report.getScriptAsString(),
            "acquire-probe",
            SCRIPTS.acquireProbe.getScriptAsString(),
            "probe-failed",
            SCRIPTS.probeFailed.getScriptAsString(),
            "close",
            SCRIPTS.close.getScriptAsString(),
            "force",
            SCRIPTS.force.getScriptAsString(),
            "seed",
            SCRIPTS.seed.getScriptAsString());

    final BreakerScripts scripts = SCRIPTS;
    private final Map<RedisScript<?>, String> scriptNames = new IdentityHashMap<>();
    private final Map<String, String> scriptTexts = new HashMap<>();
    /** Answers by the verdict object RedisSharedState hands on (it passes the answer's own verdict). */
    private final Map<SharedVerdict, RedisStateStore.Answer> answerOf = new IdentityHashMap<>();

    /** The step being taken: which of its script calls times out, and how many it made so far. */
    private int timeoutRun;

    int runsInStep;
    boolean recording;
    /** Script runs already made (same script, arguments, time and Redis state): replays skip luaj. */
    Map<String, Object[]> memo;
    /** Script calls as Redis ran them, for the comparison with a real redis-server. */
    final List<ScriptRun> runs = new ArrayList<>();

    final List<String> violations = new ArrayList<>();
    // invariant bookkeeping
    final List<Change> changes = new ArrayList<>();
    private boolean latestChangeApplied;
    private String latestChangeIncarnation;
    int dependencyCallsInClosed;
    /** Calls admitted in CLOSED that failed since the fleet's current window began (a trip needs THRESHOLD). */
    int failuresInWindow;
    /** The reopen time of the fleet's current wait window (Redis clock), and its incarnation. */
    private long windowProbeAt;

    private String windowProbeInc;

    record Change(long at, State target, int instance) {}

    record ScriptRun(
            long now,
            String script,
            List<String> keys,
            List<String> args,
            Object reply,
            TreeMap<String, Object> after) {}

    /** A request whose caller stopped waiting. */
    final class Pending {
        final int id;
        final int instance;
        final String script;
        final List<String> keys;
        final List<String> args;
        final Consumer<RedisStateStore.Answer> late;
        final long sentAfter;
        RedisStateStore.Answer answer;

        Pending(
                int instance,
                String script,
                List<String> keys,
                List<String> args,
                Consumer<RedisStateStore.Answer> late,
                long sentAfter) {
            this.id = nextPendingId++;
            this.instance = instance;
            this.script = script;
            this.keys = keys;
            this.args = args;
            this.late = late;
            this.sentAfter = sentAfter;
        }
    }

    /** One instance: its breaker, its link to the fleet, its caller's call in flight. */
    final class Inst implements ScriptStore {
        final int index;
        final String id;
        final RedisSharedState shared;
        final CircuitBreaker breaker;
        /** The caller's call in flight: permit, state that admitted it, when. */
        long permit;

        State admittedIn;
        long admittedAt;
        /** Redis's incarnation when the call was admitted (null: Redis had no state). */
        String admittedInc;

        boolean inFlight;
        /** Newest version delivered to RedisSharedState, per incarnation (what it has applied). */
        final Map<String, Long> newestDelivered = new TreeMap<>();
        /** Newest operator time this instance knows: from answers it adopted, or its own changes. */
        long knownOperatorAt;

        Inst(int index) {
            this.index = index;
            this.id = "i" + index;
            this.shared = new RedisSharedState(this, NAME, rules.config());
            Watch watch = new Watch(this);
            NanoClock clock = () -> now * 1_000_000L;
            this.breaker = CircuitBreaker.of(NAME, rules.config(), clock, (name, config) -> watch);
        }

        @Override
        public BreakerScripts scripts() {
            return scripts;
        }

        @Override
        public String instanceIdArg() {
            return id;
        }

        @Override
        public long keyExpiryMillis() {
            return EXPIRY_MS;
        }

        @Override
        public long ttlNanos() {
            return 1_000_000L;
        }

        @Override
        public long timeoutNanos() {
            return TIMEOUT_MS * 1_000_000L;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public SharedVerdict unavailable() {
            return null;
        }

        @Override
        public boolean refreshSoon(RedisSharedState shared) {
            return true; // refreshes are steps of their own (REFRESH), at any time
        }

        @Override
        public RedisStateStore.Answer run(
                RedisScript<List> script,
                List<String> keys,
                String[] args,
                boolean evenIfDown,
                Consumer<RedisStateStore.Answer> late) {
            runsInStep++;
            String name = scriptNames.get(script);
            if (runsInStep == timeoutRun) {
                pending.add(new Pending(index, name, keys, List.of(args), late, receipts(shared)));
                return null;
            }
            RedisStateStore.Answer answer = execute(index, name, keys, List.of(args));
            delivered(this, answer);
            return answer;
        }

        @Override
        public void runAsync(
                RedisScript<List> script, List<String> keys, String[] args, Consumer<RedisStateStore.Answer> then) {
            throw new IllegalStateException("the model's callers are never on an event loop");
        }

        @Override
        public long currentTimeMillis() {
            return now + ++wallTicks; // strictly increasing: no two operator actions in the same ms
        }
    }

    /** Hands every call on to the real RedisSharedState, and watches the verdicts the breaker adopts. */
    private final class Watch implements SharedState {
        private final Inst in;

        Watch(Inst in) {
            this.in = in;
        }

        private SharedVerdict seen(SharedVerdict verdict) {
            adopted(in, verdict);
            return verdict;
        }

        @Override
        public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {
            in.shared.connect(
                    verdict -> {
                        adopted(in, verdict);
                        adopter.accept(verdict);
                    },
                    clock);
        }

        @Override
        public void recordSuccess() {
            in.shared.recordSuccess();
        }

        @Override
        public void touch() {
            in.shared.touch();
        }

        @Override
        public SharedVerdict recordFailure(CallOutcome outcome) {
            return seen(in.shared.recordFailure(outcome));
        }

        @Override
        public boolean allowsLocalTrip() {
            return in.shared.allowsLocalTrip();
        }

        @Override
        public SharedVerdict tryAcquireProbe() {
            return seen(in.shared.tryAcquireProbe());
        }

        @Override
        public SharedVerdict recordFailure(CallOutcome outcome, long waitNanos, WaitReason waitReason) {
            return seen(in.shared.recordFailure(outcome, waitNanos, waitReason));
        }

        @Override
        public SharedVerdict probeFailed() {
            return seen(in.shared.probeFailed());
        }

        @Override
        public SharedVerdict probeFailed(int failedProbes, long waitNanos, WaitReason waitReason) {
            return seen(in.shared.probeFailed(failedProbes, waitNanos, waitReason));
        }

        @Override
        public SharedVerdict probesSucceeded() {
            return seen(in.shared.probesSucceeded());
        }

        @Override
        public SharedVerdict operatorSets(State target) {
            return seen(in.shared.operatorSets(target));
        }
    }

    FleetWorld(Rules rules, List<Mutation> mutations) {
        this.rules = rules;
        this.mutations = mutations;
        scriptNames.put(scripts.report, "report");
        scriptNames.put(scripts.acquireProbe, "acquire-probe");
        scriptNames.put(scripts.probeFailed, "probe-failed");
        scriptNames.put(scripts.close, "close");
        scriptNames.put(scripts.force, "force");
        scriptNames.put(scripts.seed, "seed");
        for (Map.Entry<RedisScript<?>, String> e : scriptNames.entrySet()) {
            String text = e.getKey().getScriptAsString();
            for (Mutation m : mutations) {
                if (m.script().equals(e.getValue())) {
                    if (!text.contains(m.from())) {
                        throw new IllegalStateException(
                                "mutation not applicable, " + m.script() + " has no: " + m.from());
                    }
                    text = text.replace(m.from(), m.to());
                }
            }
            scriptTexts.put(e.getValue(), text);
        }
        for (int i = 0; i < INSTANCES; i++) {
            inst[i] = new Inst(i);
        }
    }

    // ---------------------------------------------------------------- Redis

    private RedisStateStore.Answer execute(int instance, String script, List<String> keys, List<String> args) {
        Map<String, String> before = stateHash();
        Object reply;
        if (memo != null) {
            String key = script + '|' + args + '|' + keys + '|' + now + '|' + redis.stateText();
            Object[] known = memo.get(key);
            if (known != null) {
                redis.restoreState((Object[]) known[1]);
                reply = known[0];
            } else {
                reply = redis.eval(scriptTexts.get(script), keys, args);
                memo.put(key, new Object[] {reply, redis.copyState()});
            }
        } else {
            reply = redis.eval(scriptTexts.get(script), keys, args);
        }
        Map<String, String> after = stateHash();
        if (recording) {
            runs.add(new ScriptRun(now, script, keys, args, reply, redis.dump()));
        }
        checkScript(instance, script, before, after);
        RedisStateStore.Answer answer = RedisStateStore.parse((List<?>) reply);
        answerOf.put(answer.verdict(), answer);
        return answer;
    }

    private Map<String, String> stateHash() {
        Object value = redis.dump().get(STATE_KEY);
        @SuppressWarnings("unchecked")
        Map<String, String> hash = value instanceof Map ? (Map<String, String>) value : Map.of();
        return hash;
    }

    private static long receipts(RedisSharedState shared) {
        return ((AtomicLong) Reflect.get(shared, "receipts")).get();
    }

    // ---------------------------------------------------------------- steps

    /** Takes one step; returns how many script calls it made (a timeout variant needs at least k). */
    int apply(Op op) {
        timeoutRun = op.timeout();
        runsInStep = 0;
        Inst in = op.instance() >= 0 ? inst[op.instance()] : null;
        switch (op.kind()) {
            case CALL_OK -> {
                if (admit(in)) {
                    end(in, true);
                }
            }
            case CALL_FAIL -> {
                if (admit(in)) {
                    end(in, false);
                }
            }
            case START -> admit(in);
            case END_OK -> end(in, true);
            case END_FAIL -> end(in, false);
            case REFRESH -> in.shared.refresh();
            case OPERATOR -> {
                State target = TARGETS[op.arg()];
                long before = wallTicks;
                switch (target) {
                    case FORCED_OPEN -> in.breaker.forceOpen();
                    case FORCED_CLOSED -> in.breaker.forceClosed();
                    default -> in.breaker.release();
                }
                if (wallTicks == before) {
                    throw new IllegalStateException("operatorSets did not read the wall clock");
                }
                long at = now + wallTicks;
                changes.add(new Change(at, target, in.index));
                in.knownOperatorAt = Math.max(in.knownOperatorAt, at);
                latestChangeApplied = false;
            }
            case TIME -> now += STEP_MS;
            case LOSE -> {
                redis.flushAll();
                if (recording) {
                    runs.add(new ScriptRun(now, "FLUSH", List.of(), List.of(), null, redis.dump()));
                }
            }
            case EXEC -> {
                Pending p = pending(op.arg());
                p.answer = execute(p.instance, p.script, p.keys, p.args);
                if (p.late == null) {
                    pending.remove(p); // nobody waits for this answer (a seed sent without a callback)
                }
            }
            case DELIVER -> {
                Pending p = pending(op.arg());
                pending.remove(p);
                delivered(inst[p.instance], p.answer);
                p.late.accept(p.answer);
            }
        }
        if (timeoutRun > runsInStep) {
            throw new IllegalStateException("no script call " + timeoutRun + " in " + op);
        }
        checkStep();
        return runsInStep;
    }

    Pending pending(int id) {
        for (Pending p : pending) {
            if (p.id == id) {
                return p;
            }
        }
        throw new IllegalStateException("no pending request #" + id);
    }

    private boolean admit(Inst in) {
        long permit = in.breaker.tryAcquirePermit();
        if (permit == CircuitBreaker.NO_PERMIT) {
            return false;
        }
        in.permit = permit;
        in.admittedIn = in.breaker.getState();
        in.admittedAt = now;
        in.admittedInc = stateHash().get("inc");
        in.inFlight = true;
        if (in.admittedIn == State.CLOSED) {
            dependencyCallsInClosed++;
        }
        if (in.admittedIn == State.HALF_OPEN) {
            checkProbeAdmitted(in);
        }
        return true;
    }

    private static final IOException DOWN = new IOException("the dependency is down");

    private void end(Inst in, boolean ok) {
        in.inFlight = false;
        if (!ok && in.admittedIn == State.CLOSED) {
            failuresInWindow++;
        }
        if (ok) {
            in.breaker.onSuccess(in.permit, 0L);
        } else {
            in.breaker.onError(in.permit, 0L, DOWN);
        }
    }

    /** Steps that can be taken now (without timeouts: the explorer adds those variants). */
    List<Op> enabled() {
        List<Op> ops = new ArrayList<>();
        for (Inst in : inst) {
            int i = in.index;
            if (!in.inFlight) {
                if (rules.successes()) {
                    ops.add(new Op(Kind.CALL_OK, i, 0, 0));
                }
                ops.add(new Op(Kind.CALL_FAIL, i, 0, 0));
                if (rules.slowCalls()) {
                    ops.add(new Op(Kind.START, i, 0, 0));
                }
            } else {
                if (rules.successes()) {
                    ops.add(new Op(Kind.END_OK, i, 0, 0));
                }
                ops.add(new Op(Kind.END_FAIL, i, 0, 0));
            }
            ops.add(new Op(Kind.REFRESH, i, 0, 0));
            if (rules.operator() && i < rules.operatorInstances()) {
                for (int t = 0; t < TARGETS.length; t++) {
                    ops.add(new Op(Kind.OPERATOR, i, t, 0));
                }
            }
        }
        if (rules.time()) {
            ops.add(new Op(Kind.TIME, -1, 0, 0));
        }
        if (rules.lose()) {
            ops.add(new Op(Kind.LOSE, -1, 0, 0));
        }
        for (Pending p : pending) {
            ops.add(new Op(p.answer == null ? Kind.EXEC : Kind.DELIVER, -1, p.id, 0));
        }
        return ops;
    }

    /** Whether the explorer may try {@code op} with its script call {@code k} timing out. */
    boolean mayTimeOut(Op op) {
        if (pending.size() >= rules.maxPending()) {
            return false;
        }
        boolean failureReport = op.kind() == Kind.CALL_FAIL || op.kind() == Kind.END_FAIL;
        return failureReport ? rules.failureReportsTimeOut() : rules.otherTimeouts();
    }

    // ---------------------------------------------------------------- invariants

    private void violation(String invariant, String detail) {
        violations.add(invariant + ": " + detail);
    }

    /**
     * Per script run: the reopen time is never extended by a later failure, and a failure report never
     * changes a non-CLOSED state; a trip needs THRESHOLD failed calls in the current window (each
     * report counted once); only the lease holder closes the fleet; no lease before the wait is over.
     */
    private void checkScript(int instance, String script, Map<String, String> before, Map<String, String> after) {
        String inc = before.get("inc");
        if ("OPEN".equals(after.get("state"))) {
            windowProbeAt = Long.parseLong(after.get("probe_at"));
            windowProbeInc = after.get("inc");
        }
        boolean tripped = "CLOSED".equals(before.get("state"))
                && "OPEN".equals(after.get("state"))
                && Objects.equals(inc, after.get("inc"))
                && script.equals("report");
        if (tripped && failuresInWindow < THRESHOLD) {
            violation("counted-once", "the fleet tripped after " + failuresInWindow + " failed call(s) in its window");
        }
        // A new CLOSED period (or a new incarnation) starts a new window: earlier failures are not in it.
        if (!Objects.equals(inc, after.get("inc"))
                || ("CLOSED".equals(after.get("state")) && !"CLOSED".equals(before.get("state")))) {
            failuresInWindow = 0;
        }
        if (inc == null || !inc.equals(after.get("inc"))) {
            return;
        }
        if (script.equals("close")
                && "HALF_OPEN".equals(before.get("state"))
                && "CLOSED".equals(after.get("state"))
                && !("i" + instance).equals(before.get("lease_owner"))) {
            violation(
                    "closed-by-lease-holder",
                    "i" + instance + " closed the fleet while " + before.get("lease_owner") + " held the lease");
        }
        if ("OPEN".equals(before.get("state"))
                && "HALF_OPEN".equals(after.get("state"))
                && script.equals("acquire-probe")
                && now < Long.parseLong(before.get("probe_at"))) {
            violation(
                    "one-probe",
                    "i" + instance + " got the probe lease " + (Long.parseLong(before.get("probe_at")) - now)
                            + "ms before the wait was over");
        }
        boolean reopened = "HALF_OPEN".equals(before.get("state"))
                && "OPEN".equals(after.get("state"))
                && script.equals("probe-failed");
        if (tripped || reopened) {
            // The wait grows with the fleet's failed probes, from the trip's, and every instance's
            // reopen time is this one (checkProbeAdmitted holds every probe to it).
            int attempts = Integer.parseInt(after.getOrDefault("attempts", "0"));
            int expectedAttempts = tripped ? 0 : Integer.parseInt(before.getOrDefault("attempts", "0")) + 1;
            long wait = Long.parseLong(after.get("probe_at")) - now;
            if (attempts != expectedAttempts || wait != expectedWaitMs(expectedAttempts)) {
                violation(
                        "backoff-wait",
                        script + " by i" + instance + " opened the fleet after " + attempts
                                + " failed probe(s) (expected "
                                + expectedAttempts + ") for " + wait + "ms (expected "
                                + expectedWaitMs(expectedAttempts) + "ms)");
            }
        }
        if ("OPEN".equals(before.get("state"))
                && "OPEN".equals(after.get("state"))
                && Long.parseLong(after.get("probe_at")) > Long.parseLong(before.get("probe_at"))) {
            violation(
                    "reopen-time",
                    script + " by i" + instance + " moved probe_at from " + before.get("probe_at") + " to "
                            + after.get("probe_at"));
        }
        if (script.equals("report") && !"CLOSED".equals(before.get("state"))) {
            for (String field : List.of("state", "probe_at", "lease_owner", "lease_until")) {
                if (!Objects.equals(before.get(field), after.get(field))) {
                    violation(
                            "reopen-time",
                            "a report by i" + instance + " changed " + field + " of a " + before.get("state")
                                    + " state: " + before.get(field) + " -> " + after.get(field));
                }
            }
        }
    }

    /** A probe is admitted only by the holder of a live lease, unless the fleet's state lets calls through anyway. */
    private void checkProbeAdmitted(Inst in) {
        Map<String, String> s = stateHash();
        String state = s.get("state");
        if (Objects.equals(windowProbeInc, s.get("inc")) && now < windowProbeAt) {
            violation(
                    "one-probe",
                    in.id + " admitted a probe " + (windowProbeAt - now) + "ms before the fleet's wait was over");
        }
        if ("OPEN".equals(state)) {
            violation(
                    "one-probe",
                    in.id + " admitted a probe without a live lease (the fleet is OPEN, probe_at in "
                            + (Long.parseLong(s.get("probe_at")) - now) + "ms)");
        } else if ("HALF_OPEN".equals(state)) {
            long until = Long.parseLong(s.getOrDefault("lease_until", "0"));
            if (!in.id.equals(s.get("lease_owner")) || until <= now) {
                violation(
                        "one-probe",
                        in.id + " admitted a probe without a live lease (lease of " + s.get("lease_owner") + ", "
                                + (until - now) + "ms left)");
            }
        }
    }

    private void adopted(Inst in, SharedVerdict verdict) {
        if (verdict == null) {
            return;
        }
        RedisStateStore.Answer answer = answerOf.get(verdict);
        if (answer == null) {
            return; // made by the instance itself (no answer yet, a seed on its way)
        }
        Long newest = in.newestDelivered.get(answer.incarnation());
        if (newest != null && answer.version() < newest) {
            violation(
                    verdict.state() == State.CLOSED ? "closed-from-older-answer" : "answers-in-order",
                    in.id + " adopted " + verdict.state() + " of version " + answer.version()
                            + " after applying version " + newest);
        }
        in.knownOperatorAt = Math.max(in.knownOperatorAt, answer.operatorAt());
    }

    private void delivered(Inst in, RedisStateStore.Answer answer) {
        in.newestDelivered.merge(answer.incarnation(), answer.version(), Math::max);
    }

    private void checkStep() {
        // At most one probe in flight fleet-wide (a probe admitted a whole lease ago is the caller's
        // own timeout's business: the lease is free again by design).
        int probes = 0;
        java.util.Set<String> incarnations = new java.util.HashSet<>();
        for (Inst in : inst) {
            if (in.inFlight && in.admittedIn == State.HALF_OPEN && now - in.admittedAt < LEASE_MS) {
                probes++;
                incarnations.add(String.valueOf(in.admittedInc));
            }
        }
        if (probes > 1) {
            violation(
                    "one-probe",
                    probes + " probes in flight in one wait window"
                            + (incarnations.size() > 1 ? " across a lost state" : ""));
        }
        // The operator's latest change wins.
        Map<String, String> s = stateHash();
        String state = s.get("state");
        long opAt = Long.parseLong(s.getOrDefault("op_at", "0"));
        if (state != null && State.valueOf(state).isForced()) {
            boolean made = false;
            for (Change c : changes) {
                made |= c.at() == opAt && c.target().name().equals(state);
            }
            if (!made) {
                violation(
                        "operator-latest-wins",
                        "Redis holds " + state + " with op_at " + opAt + ", which no operator change set");
            }
        }
        if (!changes.isEmpty()) {
            Change latest = changes.get(changes.size() - 1);
            String inc = s.get("inc");
            if (latestChangeApplied && !Objects.equals(inc, latestChangeIncarnation)) {
                latestChangeApplied = false; // Redis lost it; the instances that know it put it back
            }
            if (opAt > latest.at()) {
                violation(
                        "operator-latest-wins",
                        "Redis op_at " + opAt + " is newer than the latest change " + latest.at());
            } else if (opAt == latest.at()) {
                latestChangeApplied = true;
                latestChangeIncarnation = inc;
                boolean forced = state != null && State.valueOf(state).isForced();
                if (latest.target().isForced() ? !latest.target().name().equals(state) : forced) {
                    violation(
                            "operator-latest-wins",
                            "Redis holds " + state + " after the latest change " + latest.target() + " was applied");
                }
            } else if (latestChangeApplied) {
                violation(
                        "operator-latest-wins",
                        "Redis went back to op_at " + opAt + " after applying the latest change");
            }
            for (Inst in : inst) {
                if (in.knownOperatorAt == latest.at()) {
                    State local = in.breaker.getState();
                    if (latest.target().isForced() ? local != latest.target() : local.isForced()) {
                        violation(
                                "operator-latest-wins",
                                in.id + " knows the latest change (" + latest.target() + ") but is " + local);
                    }
                }
            }
        }
        if (rules.countDependencyCalls() && dependencyCallsInClosed > THRESHOLD + INSTANCES - 1) {
            violation(
                    "dependency-calls",
                    dependencyCallsInClosed + " calls reached the failing dependency (at most "
                            + (THRESHOLD + INSTANCES - 1) + ")");
        }
    }

    /** For traces: the fleet's state in Redis, each instance's, and what is pending. */
    String summary() {
        StringBuilder b = new StringBuilder("   t=+").append(now - START_MS).append("ms redis: ");
        Map<String, String> s = stateHash();
        if (s.isEmpty()) {
            b.append("(no state)");
        } else {
            b.append(s.get("state"))
                    .append('/')
                    .append(s.get("cause"))
                    .append(" v")
                    .append(s.get("ver"))
                    .append(" inc=")
                    .append(s.get("inc"));
            if (s.containsKey("probe_at")) {
                b.append(" probe_at=+").append(Long.parseLong(s.get("probe_at")) - START_MS);
            }
            if (s.containsKey("lease_owner")) {
                b.append(" lease=")
                        .append(s.get("lease_owner"))
                        .append(" until +")
                        .append(Long.parseLong(s.get("lease_until")) - START_MS);
            }
            if (!"0".equals(s.getOrDefault("op_at", "0"))) {
                b.append(" op_at=+").append(Long.parseLong(s.get("op_at")) - START_MS);
            }
            if ("1".equals(s.get("fresh"))) {
                b.append(" fresh");
            }
        }
        Object window = redis.dump().get(TAG + ":window");
        if (window != null) {
            b.append(" window=").append(window);
        }
        for (Inst in : inst) {
            b.append("\n     ").append(in.id).append(": ").append(in.breaker.getState());
            if (in.breaker.getState() == State.OPEN) {
                b.append(" (probe in ")
                        .append(in.breaker.getRemainingWaitNanos() / 1_000_000L)
                        .append("ms)");
            }
            if (in.inFlight) {
                b.append(", call in flight admitted in ")
                        .append(in.admittedIn)
                        .append(" at +")
                        .append(in.admittedAt - START_MS);
            }
            Object applied = ((AtomicReference<?>) Reflect.get(in.shared, "newest")).get();
            if (applied != null) {
                RedisStateStore.Answer a = (RedisStateStore.Answer) Reflect.component(applied, "answer");
                b.append(", newest answer ")
                        .append(a.verdict().state())
                        .append(" v")
                        .append(a.version())
                        .append(" inc=")
                        .append(a.incarnation());
            }
            int unacked = 0;
            for (Object ignored : (Iterable<?>) Reflect.get(in.shared, "unacked")) {
                unacked++;
            }
            if (unacked > 0) {
                b.append(", ").append(unacked).append(" unacknowledged report(s)");
            }
            Object op = ((AtomicReference<?>) Reflect.get(in.shared, "pendingOperator")).get();
            if (op != null) {
                b.append(", pending operator change ").append(Reflect.component(op, "target"));
            }
        }
        for (Pending p : pending) {
            b.append("\n     pending #")
                    .append(p.id)
                    .append(": ")
                    .append(p.script)
                    .append(" of i")
                    .append(p.instance)
                    .append(
                            p.answer == null
                                    ? ", not run yet"
                                    : ", answered " + p.answer.verdict().state() + " v" + p.answer.version());
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- fingerprint

    /**
     * Everything that decides what can happen next, with times relative to now, incarnations and
     * operator times renamed by rank (only their order and equality matter), and instances taken in
     * a canonical order (they are interchangeable, except that only some may be operated): two worlds
     * with the same fingerprint behave alike from here up to a renaming of the instances, so the
     * explorer prunes the second one.
     */
    /**
     * A count of failed probes as far as it decides anything: the waits it leads to are the same once
     * the backoff reaches its cap (and always, without a multiplier), so counts past that are one state.
     */
    int backoffLevel(int failedProbes) {
        BreakerConfig config = rules.config();
        int level = 0;
        long wait = config.getWaitDurationInOpenState().toMillis();
        long cap = config.longestWaitInOpenState().toMillis();
        while (level < failedProbes && config.getWaitMultiplier() > 1f && wait < cap) {
            wait = (long) (wait * config.getWaitMultiplier());
            level++;
        }
        return level;
    }

    /** The wait of an OPEN that follows {@code failedProbes} failed probes (0: the trip), without jitter. */
    long expectedWaitMs(int failedProbes) {
        BreakerConfig config = rules.config();
        double wait =
                config.getWaitDurationInOpenState().toMillis() * Math.pow(config.getWaitMultiplier(), failedProbes);
        return (long) Math.min(wait, config.longestWaitInOpenState().toMillis());
    }

    String fingerprint() {
        Canon c = new Canon();
        StringBuilder b = new StringBuilder();
        TreeMap<String, Object> dump = redis.dump();
        for (Map.Entry<String, Object> e : dump.entrySet()) {
            if (e.getKey().startsWith(TAG + ":ack:")) {
                continue; // with its instance
            }
            b.append(e.getKey()).append('=');
            if (e.getValue() instanceof Map<?, ?> hash) {
                b.append('{');
                for (Map.Entry<?, ?> f : hash.entrySet()) {
                    String field = (String) f.getKey();
                    String value = (String) f.getValue();
                    switch (field) {
                        case "since", "opened_at", "lease_owner" -> {
                            continue; // never decides anything; the owner is told with its instance
                        }
                        default -> {}
                    }
                    b.append(field).append(':');
                    switch (field) {
                        case "probe_at", "lease_until" -> b.append(Math.max(0, Long.parseLong(value) - now));
                        case "inc" -> b.append(c.inc(value));
                        case "attempts" -> b.append(backoffLevel(Integer.parseInt(value)));
                        case "op_at" -> b.append(c.op(Long.parseLong(value)));
                        default -> b.append(value);
                    }
                    b.append(',');
                }
                b.append('}');
            } else {
                for (char ch : ((String) e.getValue()).toCharArray()) {
                    b.append((int) ch).append(' ');
                }
            }
            b.append(';');
        }
        Object state = dump.get(STATE_KEY);
        Object owner = state instanceof Map<?, ?> hash ? hash.get("lease_owner") : null;
        List<String> instances = new ArrayList<>();
        for (Inst in : inst) {
            instances.add(instanceFingerprint(in, c, owner, dump.get(TAG + ":ack:" + in.id)));
        }
        java.util.Collections.sort(instances);
        for (String one : instances) {
            b.append('\n').append(one);
        }
        if (!changes.isEmpty()) {
            Change latest = changes.get(changes.size() - 1);
            b.append("\nlatest=")
                    .append(latest.target())
                    .append('/')
                    .append(c.op(latest.at()))
                    .append('/')
                    .append(latestChangeApplied ? c.inc(latestChangeIncarnation) : "-");
            for (Change ch : changes) {
                b.append(' ').append(ch.target()).append('/').append(c.op(ch.at()));
            }
        }
        if (rules.countDependencyCalls()) {
            b.append("\ncalls=").append(dependencyCallsInClosed);
        }
        b.append("\nfailuresInWindow=")
                .append(Math.min(failuresInWindow, THRESHOLD))
                .append(" waitLeft=")
                .append(c.inc(windowProbeInc))
                .append('/')
                .append(Math.max(0, windowProbeAt - now));
        return c.finish(b.toString());
    }

    private String instanceFingerprint(Inst in, Canon c, Object leaseOwner, Object ack) {
        StringBuilder b = new StringBuilder();
        b.append(in.index < rules.operatorInstances() && rules.operator() ? "op " : "");
        b.append(in.id.equals(leaseOwner) ? "owner " : "");
        b.append("ack=").append(ack).append(' ');
        Object phase = Reflect.get(in.breaker, "phase");
        State state = (State) Reflect.get(phase, "state");
        long episode = (Long) Reflect.get(phase, "episode");
        b.append(state);
        if (state == State.OPEN) {
            b.append(" probeIn=").append(Math.max(0, (Long) Reflect.get(phase, "probeAtNanos") / 1_000_000L - now));
        }
        if (state == State.OPEN || state == State.HALF_OPEN) {
            b.append(" backoff=").append(backoffLevel((Integer) Reflect.get(phase, "failedProbes")));
        }
        if (state == State.HALF_OPEN) {
            Object probes = Reflect.get(phase, "probes");
            b.append(" probes=")
                    .append(Reflect.component(probes, "generation"))
                    .append('/')
                    .append(Reflect.component(probes, "issued"))
                    .append('/')
                    .append(Reflect.component(probes, "succeeded"))
                    .append(" leaseIn=")
                    .append(Math.max(0, (Long) Reflect.component(probes, "leaseDeadline") / 1_000_000L - now));
            if ((Boolean) Reflect.component(probes, "fleetLeased")) {
                b.append(" fleetLeaseIn=")
                        .append(Math.max(0, (Long) Reflect.component(probes, "fleetLeaseEnd") / 1_000_000L - now));
            }
        }
        if (in.inFlight) {
            boolean current =
                    state == State.HALF_OPEN ? Reflect.isCurrentProbe(phase, in.permit) : in.permit == episode;
            b.append(" call=")
                    .append(in.admittedIn)
                    .append(current ? "+" : "-")
                    .append(now - in.admittedAt < LEASE_MS ? "new" : "old")
                    .append('@')
                    .append(c.inc(in.admittedInc));
        }
        RedisSharedState sh = in.shared;
        b.append(" succ=").append(((SuccessCounter) Reflect.get(sh, "successes")).sum());
        b.append(" batch=").append(c.position(Reflect.get(sh, "batchStart")));
        b.append(" rno=").append(((AtomicLong) Reflect.get(sh, "reportNumbers")).get());
        b.append(" unacked=[");
        for (Object report : (Iterable<?>) Reflect.get(sh, "unacked")) {
            b.append(Reflect.component(report, "number"))
                    .append('/')
                    .append(Reflect.component(report, "bits"))
                    .append('/')
                    .append(Reflect.component(report, "successes"))
                    .append('/')
                    .append(c.position(Reflect.component(report, "successesFrom")))
                    .append('/')
                    .append(c.position(Reflect.component(report, "reportedIn")))
                    .append(' ');
        }
        b.append(']');
        Object applied = ((AtomicReference<?>) Reflect.get(sh, "newest")).get();
        if (applied != null) {
            RedisStateStore.Answer a = (RedisStateStore.Answer) Reflect.component(applied, "answer");
            long received = (Long) Reflect.component(applied, "receivedNanos");
            long left = Math.max(0, a.verdict().remainingNanos() - (now * 1_000_000L - received));
            b.append(" newest=")
                    .append(c.answer(a))
                    .append("/left ")
                    .append(left)
                    .append(Boolean.TRUE.equals(Reflect.component(applied, "seedUnconfirmed")) ? "/unconfirmed" : "");
        }
        TreeSet<String> left = new TreeSet<>();
        for (Object inc : (Iterable<?>) Reflect.get(sh, "leftIncarnations")) {
            left.add(c.inc((String) inc));
        }
        b.append(" left=").append(left);
        Object spent = Reflect.get(sh, "spentLease");
        if (spent != null) {
            b.append(" spent=")
                    .append(c.inc((String) Reflect.component(spent, "incarnation")))
                    .append('/')
                    .append(Reflect.component(spent, "version"));
        }
        Object op = ((AtomicReference<?>) Reflect.get(sh, "pendingOperator")).get();
        if (op != null) {
            b.append(" pendingOp=")
                    .append(Reflect.component(op, "target"))
                    .append('/')
                    .append(c.op((Long) Reflect.component(op, "atMillis")));
        }
        b.append(" known=").append(c.op(in.knownOperatorAt)).append(" delivered=");
        for (Map.Entry<String, Long> e : in.newestDelivered.entrySet()) {
            b.append(c.inc(e.getKey())).append('@').append(e.getValue()).append(',');
        }
        long receiptsNow = receipts(sh);
        List<String> mine = new ArrayList<>();
        for (Pending p : pending) {
            if (p.instance != in.index) {
                continue;
            }
            StringBuilder q = new StringBuilder(p.script).append(' ');
            for (int k = 9; k < p.args.size(); k++) { // ARGV[1..9] are the same for every call of an instance
                String v = p.args.get(k);
                if ((p.script.equals("force") && k == 10) || (p.script.equals("seed") && k == 11)) {
                    q.append(c.op(Long.parseLong(v))); // the operator's time
                } else if (v.indexOf('.') > 0) {
                    q.append(c.inc(v)); // an incarnation, in a report
                } else {
                    q.append(v);
                }
                q.append(',');
            }
            q.append(p.late == null ? " nobody" : p.sentAfter < receiptsNow ? " overtaken" : " current");
            if (p.answer != null) {
                q.append(" answered ").append(c.answer(p.answer));
            }
            mine.add(q.toString());
        }
        java.util.Collections.sort(mine);
        b.append(" pending=").append(mine);
        return b.toString();
    }

    /** Canonical names: incarnations and operator times by rank (only their order and equality matter). */
    private static final class Canon {
        private final TreeSet<String> incs = new TreeSet<>(
                java.util.Comparator.comparingLong((String v) -> Long.parseLong(v.substring(0, v.indexOf('.'))))
                        .thenComparingLong(v -> Long.parseLong(v.substring(v.indexOf('.') + 1))));
        private final TreeSet<Long> ops = new TreeSet<>();

        String inc(String value) {
            if (value == null || value.isEmpty()) {
                return "-";
            }
            incs.add(value);
            return "\u0003" + value + "\u0004";
        }

        String op(long at) {
            if (at == 0) {
                return "T0";
            }
            ops.add(at);
            return "\u0001" + at + "\u0002";
        }

        String position(Object position) {
            if (position == null) {
                return "null";
            }
            return inc((String) Reflect.component(position, "incarnation")) + ":" + Reflect.component(position, "epoch")
                    + ":" + Reflect.component(position, "seq");
        }

        String answer(RedisStateStore.Answer a) {
            return a.verdict().state() + "/" + a.verdict().cause() + "/"
                    + a.verdict().remainingNanos() + "/"
                    + a.version() + "/" + inc(a.incarnation()) + "/" + a.windowEpoch() + "/" + a.windowSeq() + "/"
                    + a.acked() + "/" + op(a.operatorAt()) + "/" + a.fresh();
        }

        /** Ranks in place of the values (a renaming that keeps order and equality). */
        String finish(String text) {
            int r = 0;
            for (Long at : ops) {
                text = text.replace("\u0001" + at + "\u0002", "T" + ++r);
            }
            r = 0;
            for (String inc : incs) {
                text = text.replace("\u0003" + inc + "\u0004", "I" + ++r);
            }
            return text;
        }
    }

    /**
     * Every field of the real classes, and whether the fingerprint reads it (true) or why it need not
     * (false: constant wiring or settings, observability only, or not used by the model's steps). A
     * test compares this with the classes' declared fields, so a new field cannot be forgotten here.
     */
    static final Map<String, List<String>> FINGERPRINTED = Map.of(
            "io.breaker.redis.RedisSharedState",
                    List.of(
                            "successes",
                            "batchStart",
                            "reportNumbers",
                            "unacked",
                            "newest",
                            "pendingOperator",
                            "receipts (relative: each pending request's sentAfter against it)",
                            "leftIncarnations",
                            "spentLease"),
            "io.breaker.redis.RedisSharedState$Lease", List.of("incarnation", "version"),
            "io.breaker.redis.RedisSharedState$Applied",
                    List.of("answer", "receivedNanos (as time left)", "receipt (see receipts)", "seedUnconfirmed"),
            "io.breaker.redis.RedisSharedState$Report",
                    List.of("number", "bits", "successes", "successesFrom", "reportedIn"),
            "io.breaker.redis.RedisSharedState$Position", List.of("incarnation", "epoch", "seq"),
            "io.breaker.redis.RedisSharedState$OperatorChange", List.of("target", "atMillis"),
            "io.breaker.CircuitBreaker", List.of("phase"),
            "io.breaker.Phase",
                    List.of(
                            "state",
                            "episode (whether the call in flight holds a current permit)",
                            "probeAtNanos",
                            "failedProbes (as far as the backoff reaches: see backoffLevel)",
                            "probes"),
            "io.breaker.Phase$Probes",
                    List.of(
                            "generation",
                            "issued",
                            "succeeded",
                            "leaseDeadline",
                            "fleetLeased",
                            "fleetLeaseEnd (as time left)"));

    static final Map<String, List<String>> NOT_FINGERPRINTED = Map.of(
            "io.breaker.redis.RedisSharedState",
                    List.of(
                            "store",
                            "scripts",
                            "name",
                            "keys",
                            "common",
                            "leaseNanos (a setting)",
                            "clock",
                            "adopter",
                            "nextRefreshAt (refreshes are steps of their own in the model)",
                            "checkMask (when a success looks at the clock: refreshes are steps of their own in the model)",
                            "lastCheckAt (as checkMask)",
                            "lastOperatorChangedFleet (shown by the endpoint; decides nothing)",
                            "lastOperatorUnanswered (as lastOperatorChangedFleet)"),
            "io.breaker.CircuitBreaker",
                    List.of(
                            "name",
                            "config",
                            "clock",
                            "wallClock (dates phases only)",
                            "slowNanos",
                            "windowNeedsClock",
                            "shared",
                            "rejections",
                            "listeners (listener bookkeeping)",
                            "telling (listener bookkeeping: who tells the transitions not told yet)",
                            "told (listener bookkeeping: the newest phase told)",
                            "listenersWantDurations (listener bookkeeping: whether calls are timed for listeners)",
                            "lastFailureType",
                            "reconfiguring (settings changed at runtime: not in the model)",
                            "faults (fault injection: settings, not in the model; a fault is a call's outcome)"),
            "io.breaker.Phase",
                    List.of(
                            "permitsAll (follows state)",
                            "records (follows state)",
                            "window (the local window decides only while Redis is unavailable: never in the model)",
                            "openedAtNanos",
                            "waitReason (decides no transition, it says why a wait is as long as it is)",
                            "rejection (the exception a rejected call gets, made once; decides nothing)",
                            "sinceEpochMillis",
                            "openedAtEpochMillis",
                            "successor (listener bookkeeping)",
                            "arrival (listener bookkeeping)"));

    /** Reads private fields and record components of the real classes (tests only; cached lookups). */
    static final class Reflect {
        private static final Map<String, Field> FIELDS = new HashMap<>();
        private static final Map<String, java.lang.reflect.Method> COMPONENTS = new HashMap<>();
        private static java.lang.reflect.Method isCurrentProbe;

        static Object get(Object target, String name) {
            Class<?> type = target.getClass();
            Field field = FIELDS.computeIfAbsent(type.getName() + "#" + name, k -> {
                try {
                    Field f = type.getDeclaredField(name);
                    f.setAccessible(true);
                    return f;
                } catch (NoSuchFieldException e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                return field.get(target);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        static Object component(Object record, String name) {
            Class<?> type = record.getClass();
            java.lang.reflect.Method accessor = COMPONENTS.computeIfAbsent(type.getName() + "#" + name, k -> {
                for (RecordComponent rc : type.getRecordComponents()) {
                    if (rc.getName().equals(name)) {
                        java.lang.reflect.Method m = rc.getAccessor();
                        m.setAccessible(true);
                        return m;
                    }
                }
                throw new IllegalStateException("no component " + name + " in " + type);
            });
            try {
                return accessor.invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        static boolean isCurrentProbe(Object phase, long permit) {
            try {
                if (isCurrentProbe == null) {
                    isCurrentProbe = phase.getClass().getDeclaredMethod("isCurrentProbe", long.class);
                    isCurrentProbe.setAccessible(true);
                }
                return (Boolean) isCurrentProbe.invoke(phase, permit);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
