package io.breaker.benchmarks.redis;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.benchmarks.engine.Footprint;
import io.breaker.redis.RedisStateStore;
import io.breaker.redis.RedisStoreSettings;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;

/**
 * Retained heap per idle Redis-backed breaker ({@link SameSettings}, the store's default settings),
 * next to the in-memory breaker with the same settings, measured as {@link Footprint} measures it.
 * Starts its own {@code redis-server} on a free port. A plain program:
 * <pre>
 * java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.redis.SharedFootprint [count]
 * </pre>
 * The count defaults to 2,000 breakers (each new shared breaker syncs with Redis once).
 */
public final class SharedFootprint {

    private SharedFootprint() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        BreakerConfig config = SameSettings.ours();
        try (RedisProcess redis = RedisProcess.start()) {
            LettuceConnectionFactory connections =
                    new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
            connections.afterPropertiesSet();
            connections.start();
            RedisStateStore store = new RedisStateStore(connections, RedisStoreSettings.defaults());
            try {
                long inMemory = Footprint.retainedPerBreaker(count, name -> CircuitBreaker.of(name, config));
                long shared = Footprint.retainedPerBreaker(
                        count, name -> CircuitBreaker.of(name, config, NanoClock.system(), store));
                System.out.printf(
                        "Retained heap per idle breaker (%,d breakers, median of 3 rounds, COUNT_BASED 100)%n"
                                + "  in memory     %,7d B%n  Redis-backed  %,7d B (the breaker, its link to Redis and"
                                + " the store's reference to it)%n",
                        count, inMemory, shared);
            } finally {
                store.close();
                connections.stop();
                connections.destroy();
            }
        }
    }
}
