package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.SharedState;
import io.breaker.SharedVerdict;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import org.springframework.data.redis.core.script.RedisScript;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * One breaker's link to its shared state in Redis. Keys: {@code {breaker:<name>}:state} (a hash),
 * {@code {breaker:<name>}:window} and {@code {breaker:<name>}:ring} (the shared window); the hash tag
 * puts them in one Redis Cluster slot, as a multi-key script needs.
 *
 * <p>The cached state is refreshed from calls, never from a timer: the first call (a success, or any
 * {@link #touch()}) that finds the breaker's clock past {@link #nextRefreshAt} wins a compare-and-set
 * moving it one cache TTL ahead, and hands the refresh to the store's command pool without waiting.
 */
final class RedisSharedState implements SharedState {

    private final RedisStateStore store;
    private final BreakerScripts scripts;
    private final List<String> keys;
    /** ARGV[1..9] of every script (see common.lua). */
    private final String[] common;
    /**
     * When (on the breaker's clock) the cached state is due for a refresh. Read on the call path with a
     * volatile read; only the caller whose CAS moves it ahead refreshes, so due calls race harmlessly.
     */
    private final AtomicLong nextRefreshAt = new AtomicLong();
    /** The breaker's clock (given by {@link #connect}); written once, before any call can read it. */
    private volatile NanoClock clock = NanoClock.system();
    /** Successes since the last refresh: counted on the call path, sent in one batch per period. */
    private final LongAdder successes = new LongAdder();
    /** An operator change Redis could not take yet: replayed when it answers again. */
    private final AtomicReference<State> pendingOperator = new AtomicReference<>();
    private volatile Consumer<SharedVerdict> adopter;
    /** The newest answer seen, by the time of the change it reflects. */
    private final AtomicReference<RedisStateStore.Answer> newest = new AtomicReference<>();

    RedisSharedState(RedisStateStore store, String name, BreakerConfig config) {
        this.store = store;
        this.scripts = store.scripts();
        String tag = "{breaker:" + name + "}";
        this.keys = List.of(tag + ":state", tag + ":window", tag + ":ring");
        this.common = new String[] {
                store.instanceIdArg(),
                config.getSlidingWindowType() == SlidingWindowType.COUNT_BASED ? "C" : "T",
                Integer.toString(config.getSlidingWindowSize()),
                Integer.toString(config.getMinimumNumberOfCalls()),
                Float.toString(config.getFailureRateThreshold()),
                Float.toString(config.getSlowCallRateThreshold()),
                Long.toString(config.getWaitDurationInOpenState().toMillis()),
                Long.toString(config.getProbeLease().toMillis()),
                Long.toString(store.keyExpiryMillis())
        };
    }

    @Override
    public void connect(Consumer<SharedVerdict> adopter) {
        connect(adopter, NanoClock.system());
    }

    /** Connects, then syncs once at once: a new breaker learns the fleet's state without waiting for a call. */
    @Override
    public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {
        this.clock = clock;
        this.adopter = adopter;
        nextRefreshAt.set(clock.nanoTime());
        touch();
    }

    @Override
    public void recordSuccess() {
        successes.increment();
        touch();
    }

    /**
     * On the call path: if the cached state is older than one cache TTL, exactly one caller starts a
     * refresh on the store's pool; nobody waits for it. Costs a clock read and a volatile read otherwise.
     */
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
    public SharedVerdict recordFailure(CallOutcome outcome) {
        String bits = switch (outcome) {
            case FAILURE -> "3";
            case SLOW_SUCCESS -> "5";
            case SLOW_FAILURE -> "7";
            default -> null;
        };
        if (bits == null) {
            return null;
        }
        List<?> answer = call(scripts.reportFailure, bits, Long.toString(successes.sumThenReset()));
        if (answer == null) {
            touch(); // Redis known down or silent: a due refresh tries it again (at most once per TTL per store)
        }
        return answerOrFallback(answer);
    }

    @Override
    public boolean allowsLocalTrip() {
        return !store.isAvailable();
    }

    @Override
    public SharedVerdict tryAcquireProbe() {
        return answerOrFallback(call(scripts.acquireProbe));
    }

    @Override
    public SharedVerdict probeFailed() {
        return answerOrFallback(call(scripts.probeFailed));
    }

    @Override
    public SharedVerdict probesSucceeded() {
        return answerOrFallback(call(scripts.close));
    }

    @Override
    public SharedVerdict operatorSets(State target) {
        List<?> answer = call(scripts.force, target.name());
        if (answer == null) {
            pendingOperator.set(target); // the local breaker changes now; the fleet when Redis is back
            return null;
        }
        pendingOperator.set(null);
        return answerOrFallback(answer);
    }

    /**
     * On a command thread, started by {@link #touch()}: replays a pending operator change, then sends
     * the batch of successes and adopts the fleet's state. Returns {@code false} if Redis gave no answer.
     */
    boolean refresh() {
        State pending = pendingOperator.get();
        if (pending != null) {
            List<?> answer = store.run(scripts.force, keys, args(pending.name()), true);
            if (answer == null) {
                return false;
            }
            pendingOperator.compareAndSet(pending, null);
            adoptInOrder(store.read(answer));
        }
        long batch = store.isAvailable() ? successes.sumThenReset() : 0L;
        List<?> answer = store.run(scripts.sync, keys, args(Long.toString(batch)), true);
        RedisStateStore.Answer read = answer == null ? null : store.read(answer);
        if (read == null) {
            return false;
        }
        adoptInOrder(read);
        return true;
    }

    /**
     * Adopts a refresh's answer, then the newest answer seen if a caller got a newer one meanwhile:
     * a refresh computed before a trip must not leave the breaker CLOSED after the caller that
     * learned of the trip adopted OPEN (whichever adopts last, the newest state ends up adopted).
     */
    private void adoptInOrder(RedisStateStore.Answer answer) {
        if (answer == null) {
            return;
        }
        note(answer);
        adopt(answer.verdict());
        RedisStateStore.Answer latest = newest.get();
        if (latest != null && latest.since() > answer.since()) {
            adopt(latest.verdict());
        }
    }

    private void note(RedisStateStore.Answer answer) {
        if (answer.verdict().state() != State.CLOSED) {
            // Successes counted before this instance learned the fleet is not CLOSED are late
            // outcomes, dropped as late failures are: they must not land in the next CLOSED window.
            successes.reset();
        }
        while (true) {
            RedisStateStore.Answer current = newest.get();
            if (current != null && current.since() > answer.since()) {
                return;
            }
            if (newest.compareAndSet(current, answer)) {
                return;
            }
        }
    }

    /**
     * Redis is back: successes counted while it was down would land in a later window, so they are
     * dropped; the next answer is adopted whatever its time (Redis may have lost its data); and the
     * breaker's next call refreshes it (replaying a pending operator change), without waiting a TTL.
     */
    void storeRecovered() {
        successes.reset();
        newest.set(null);
        nextRefreshAt.set(clock.nanoTime());
    }

    /** Fail closed: while Redis is down the breaker reads OPEN (unless an operator forced it meanwhile). */
    void holdOpen() {
        State pending = pendingOperator.get();
        if (pending == null || !pending.isForced()) {
            adopt(store.unavailable());
        }
    }

    private void adopt(SharedVerdict verdict) {
        Consumer<SharedVerdict> target = adopter;
        if (target != null && verdict != null) {
            target.accept(verdict);
        }
    }

    private List<?> call(RedisScript<List> script, String... own) {
        return store.run(script, keys, args(own), false);
    }

    private String[] args(String... own) {
        String[] all = new String[common.length + own.length];
        System.arraycopy(common, 0, all, 0, common.length);
        System.arraycopy(own, 0, all, common.length, own.length);
        return all;
    }

    /** A caller's answer, adopted by the breaker itself; remembered so a slower refresh cannot undo it. */
    private SharedVerdict answerOrFallback(List<?> answer) {
        RedisStateStore.Answer read = answer == null ? null : store.read(answer);
        if (read == null) {
            return store.unavailable();
        }
        note(read);
        return read.verdict();
    }
}
