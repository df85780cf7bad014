package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.State;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Several instances of an application, each with its own connection factory, store and registry,
 * sharing one Redis: what a fleet looks like to the breakers.
 */
final class Fleet implements AutoCloseable {

    final List<LettuceConnectionFactory> factories = new ArrayList<>();
    final List<RedisStateStore> stores = new ArrayList<>();
    final List<BreakerRegistry> registries = new ArrayList<>();

    Fleet(RedisServer redis, int instances, BreakerConfig config, RedisStoreSettings settings) {
        this(() -> new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
                CLIENT), instances, config, settings);
    }

    /** The client's own timeout is long on purpose: the store's bounded wait is what is tested. */
    static final LettuceClientConfiguration CLIENT = LettuceClientConfiguration.builder()
            .commandTimeout(Duration.ofSeconds(10)).build();

    Fleet(Supplier<LettuceConnectionFactory> connections, int instances, BreakerConfig config,
          RedisStoreSettings settings) {
        for (int i = 0; i < instances; i++) {
            LettuceConnectionFactory factory = connections.get();
            factory.afterPropertiesSet();
            factory.start();
            factories.add(factory);
            RedisStateStore store = new RedisStateStore(factory, settings);
            stores.add(store);
            registries.add(BreakerRegistry.of(config, Map.of(), NanoClock.system(), store));
        }
    }

    /** The breaker {@code name} on every instance, created now; waits until each store has talked to Redis. */
    List<CircuitBreaker> breakers(String name) {
        List<CircuitBreaker> breakers = new ArrayList<>();
        registries.forEach(registry -> breakers.add(registry.breaker(name)));
        await(Duration.ofSeconds(10), () -> stores.stream().allMatch(RedisStateStore::isWarm));
        return breakers;
    }

    static boolean allIn(List<CircuitBreaker> breakers, State state) {
        return breakers.stream().allMatch(breaker -> breaker.getState() == state);
    }

    /** Polls until the condition holds; fails after the deadline. */
    static void await(Duration deadline, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within " + deadline);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** Starts a platform thread (Java 17: no virtual threads). */
    static Thread thread(Runnable body) {
        Thread thread = new Thread(body);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    @Override
    public void close() {
        stores.forEach(RedisStateStore::close);
        factories.forEach(factory -> {
            factory.stop();
            factory.destroy();
        });
    }
}
