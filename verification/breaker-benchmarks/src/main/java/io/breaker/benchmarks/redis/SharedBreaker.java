package io.breaker.benchmarks.redis;

import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.redis.RedisStateStore;
import io.breaker.redis.RedisStoreSettings;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One application instance whose breaker is shared through Redis: a private {@code redis-server},
 * a Lettuce connection factory, a {@link RedisStateStore} with its default settings (cache TTL 1 s)
 * and one breaker built on it with {@link SameSettings}. {@link #open} returns only once the store
 * has talked to Redis (the breaker's state key exists) and counts it as available, so nothing
 * measured afterwards includes connecting.
 */
final class SharedBreaker implements AutoCloseable {

    static final String NAME = "wholesaler";
    private static final String STATE_KEY = "{breaker:" + NAME + "}:state";

    final RedisProcess redis;
    final RedisStateStore store;
    final CircuitBreaker breaker;
    private final LettuceConnectionFactory connections;

    private SharedBreaker(
            RedisProcess redis, LettuceConnectionFactory connections, RedisStateStore store, CircuitBreaker breaker) {
        this.redis = redis;
        this.connections = connections;
        this.store = store;
        this.breaker = breaker;
    }

    static SharedBreaker open(Supplier<Integer> work) throws IOException, InterruptedException {
        RedisProcess redis = RedisProcess.start();
        LettuceConnectionFactory connections =
                new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
        connections.afterPropertiesSet();
        connections.start();
        RedisStateStore store = new RedisStateStore(connections, RedisStoreSettings.defaults());
        CircuitBreaker breaker = CircuitBreaker.of(NAME, SameSettings.ours(), NanoClock.system(), store);
        SharedBreaker shared = new SharedBreaker(redis, connections, store, breaker);
        if (!breaker.isShared()) {
            shared.close();
            throw new IllegalStateException("the store kept breaker '" + NAME + "' in memory");
        }
        // Calls until the first script has run and the store counts Redis as answering, whether it
        // refreshes on a timer or on calls (a first refresh that timed out while connecting leaves
        // the store "down" until its next attempt, one TTL later).
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!redis.exists(STATE_KEY) || !store.isAvailable()) {
            if (System.nanoTime() > deadline) {
                shared.close();
                throw new IllegalStateException("the store did not reach Redis within 15 s");
            }
            breaker.execute(work);
            Thread.sleep(10);
        }
        return shared;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        store.close();
        connections.stop();
        connections.destroy();
        redis.close();
    }
}
