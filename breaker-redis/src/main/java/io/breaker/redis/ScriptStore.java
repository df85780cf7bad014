package io.breaker.redis;

import io.breaker.spi.SharedVerdict;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.script.RedisScript;

import java.util.List;
import java.util.function.Consumer;

/**
 * What a {@link RedisSharedState} needs from its store: the scripts, how to run one (waiting at most
 * the timeout, or not waiting), whether Redis is taken to be up, and the clocks and settings it
 * reads. {@link RedisStateStore} is the only implementation in production. It is an interface so
 * that the fleet model (breaker-redis's tests, see docs/fleet-model.md) can drive real
 * {@code RedisSharedState} instances through a deterministic store that runs the same scripts in an
 * embedded Lua interpreter and decides which answer is in time, late or lost.
 */
interface ScriptStore {

    BreakerScripts scripts();

    /** This instance's id in the fleet (ARGV[1] of every script, and the owner of its probe leases). */
    String instanceIdArg();

    long keyExpiryMillis();

    long ttlNanos();

    long timeoutNanos();

    boolean isAvailable();

    /** Whether Redis is down or its last operations went unanswered (see {@link RedisStateStore#isSilent()}). */
    default boolean isSilent() {
        return !isAvailable();
    }

    /** What a breaker adopts while Redis is known to be down (see {@link RedisStateStore#unavailable()}). */
    @Nullable
    SharedVerdict unavailable();

    /** Starts a refresh of {@code shared} without waiting; {@code false} if no refresh slot is free. */
    boolean refreshSoon(RedisSharedState shared);

    /** See {@link RedisStateStore#run}. */
    RedisStateStore.@Nullable Answer run(
            RedisScript<List> script,
            List<String> keys,
            String[] args,
            boolean evenIfDown,
            @Nullable Consumer<RedisStateStore.Answer> late);

    /** See {@link RedisStateStore#runAsync}. */
    void runAsync(RedisScript<List> script, List<String> keys, String[] args, Consumer<RedisStateStore.Answer> then);

    /** The wall clock (ms) that stamps an operator's change: the newest change wins in Redis. */
    default long currentTimeMillis() {
        return System.currentTimeMillis();
    }
}
