package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.State;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
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
        this(redis, instances, config, settings, NanoClock.system());
    }

    /** Every instance's breakers on {@code clock} (a test moves it to make cached states due). */
    Fleet(RedisServer redis, int instances, BreakerConfig config, RedisStoreSettings settings, NanoClock clock) {
        this(
                () -> new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redis.port()), CLIENT),
                instances,
                config,
                settings,
                clock);
    }

    /** The client's own timeout is long on purpose: the store's bounded wait is what is tested. */
    static final LettuceClientConfiguration CLIENT = LettuceClientConfiguration.builder()
            .commandTimeout(Duration.ofSeconds(10))
            .build();

    Fleet(
            Supplier<LettuceConnectionFactory> connections,
            int instances,
            BreakerConfig config,
            RedisStoreSettings settings) {
        this(connections, instances, config, settings, NanoClock.system());
    }

    Fleet(
            Supplier<LettuceConnectionFactory> connections,
            int instances,
            BreakerConfig config,
            RedisStoreSettings settings,
            NanoClock clock) {
        for (int i = 0; i < instances; i++) {
            LettuceConnectionFactory factory = connections.get();
            factory.afterPropertiesSet();
            factory.start();
            factories.add(factory);
            RedisStateStore store = new RedisStateStore(factory, settings);
            stores.add(store);
            registries.add(BreakerRegistry.of(config, Map.of(), clock, store));
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

    /**
     * A healthy call on each breaker: it passes and succeeds, or is rejected. Either way it is a call,
     * and a call is what refreshes a breaker's cached state (there is no timer).
     */
    static void succeedEach(List<CircuitBreaker> breakers) {
        for (CircuitBreaker breaker : breakers) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.onSuccess(permit, 0L);
            }
        }
    }

    /**
     * A failing call on each breaker that lets it through: an instance that has not heard of a fleet
     * trip learns of it from the answer to its failure report.
     */
    static void failEach(List<CircuitBreaker> breakers) {
        for (CircuitBreaker breaker : breakers) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.onError(permit, 0L, new IOException("dependency down"));
            }
        }
    }

    /** Polls, making one round of {@code calls} before each look, until the condition holds. */
    static void awaitCalling(
            Duration deadline,
            Consumer<List<CircuitBreaker>> calls,
            List<CircuitBreaker> breakers,
            BooleanSupplier condition) {
        await(deadline, () -> {
            calls.accept(breakers);
            return condition.getAsBoolean();
        });
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
