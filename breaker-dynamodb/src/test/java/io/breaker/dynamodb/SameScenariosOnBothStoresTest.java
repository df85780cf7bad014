package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.redis.RedisServer;
import io.breaker.redis.RedisStateStore;
import io.breaker.redis.RedisStoreSettings;
import io.breaker.spi.StateStore;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One scenario, played by three instances (each its own store and registry) on the Redis store and
 * on the DynamoDB store: what every instance sees is written down step by step, and the two stores
 * must write the same lines, which are also the protocol's expected ones. Times are real (Redis
 * decides by its own clock), but every step waits for a state, never for a duration.
 */
class SameScenariosOnBothStoresTest {

    @RegisterExtension
    static final RedisServer REDIS = new RedisServer();

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    @RegisterExtension
    final DynamoStores dynamoStores = new DynamoStores(DYNALITE);

    private static final int INSTANCES = 3;
    private static final Duration TTL = Duration.ofSeconds(1);
    /** Long, so that a slow answer on a loaded machine is waited for rather than taken for an outage. */
    private static final Duration TIMEOUT = Duration.ofMillis(900);

    private static final Duration OUTAGE_AFTER = Duration.ofSeconds(30);

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(10)
            .minimumNumberOfCalls(4)
            .failureRateThreshold(50)
            // Several cache TTLs: every instance learns of a trip (its next refresh) before any may probe.
            .waitDurationInOpenState(Duration.ofSeconds(4))
            .permittedCallsInHalfOpenState(1)
            .probeLease(Duration.ofSeconds(30))
            .build();

    /** What each instance must see, on either store. */
    private static final List<String> EXPECTED = List.of(
            "i0 fails: CLOSED",
            "i1 fails: CLOSED",
            "i2 fails: CLOSED",
            "i0 fails: OPEN",
            "all OPEN",
            "probes admitted: 1",
            "probe fails: OPEN",
            "all OPEN",
            "probes admitted: 1",
            "probe succeeds: CLOSED",
            "all CLOSED",
            "i1 forces open: FORCED_OPEN",
            "all FORCED_OPEN",
            "i2 releases: CLOSED",
            "all CLOSED");

    @Test
    void everyInstanceSeesTheSameOnRedisAndOnDynamoDb() throws Exception {
        List<String> redis;
        try (RedisFleet fleet = new RedisFleet()) {
            redis = play(fleet.breakers("inventory"));
        }
        List<String> dynamo;
        try (DynamoFleet fleet = new DynamoFleet(dynamoStores)) {
            dynamo = play(fleet.breakers("inventory"));
        }
        assertThat(dynamo).isEqualTo(redis);
        assertThat(redis).isEqualTo(EXPECTED);
    }

    private static List<String> play(List<CircuitBreaker> breakers) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        for (int i : new int[] {0, 1, 2, 0}) {
            fail(breakers.get(i));
            seen.add("i" + i + " fails: " + breakers.get(i).getState());
        }
        seen.add(allSee(breakers, State.OPEN));
        probe(breakers, seen, false);
        seen.add(allSee(breakers, State.OPEN));
        probe(breakers, seen, true);
        seen.add(allSee(breakers, State.CLOSED));
        breakers.get(1).forceOpen();
        seen.add("i1 forces open: " + breakers.get(1).getState());
        seen.add(allSee(breakers, State.FORCED_OPEN));
        breakers.get(2).release();
        seen.add("i2 releases: " + breakers.get(2).getState());
        seen.add(allSee(breakers, State.CLOSED));
        return seen;
    }

    /**
     * Every instance calls, round after round, until one is admitted as the probe; a few more rounds
     * follow while that probe runs (nobody else may be admitted); then the probe ends.
     */
    private static void probe(List<CircuitBreaker> breakers, List<String> seen, boolean succeeds)
            throws InterruptedException {
        CircuitBreaker prober = null;
        long permit = CircuitBreaker.NO_PERMIT;
        int admitted = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int roundsAfter = 0;
        while (roundsAfter < 5) {
            for (CircuitBreaker breaker : breakers) {
                long p = breaker.tryAcquirePermit();
                if (p != CircuitBreaker.NO_PERMIT) {
                    admitted++;
                    if (prober == null) {
                        prober = breaker;
                        permit = p;
                    } else {
                        breaker.onSuccess(p, 0L);
                    }
                }
            }
            if (prober != null) {
                roundsAfter++;
            } else if (System.nanoTime() > deadline) {
                throw new AssertionError("no instance was admitted as the probe within 20s");
            }
            Thread.sleep(100);
        }
        seen.add("probes admitted: " + admitted);
        if (succeeds) {
            prober.onSuccess(permit, 0L);
            seen.add("probe succeeds: " + prober.getState());
        } else {
            prober.onError(permit, 0L, new IOException("still down"));
            seen.add("probe fails: " + prober.getState());
        }
    }

    /** Calls every instance (a call is what refreshes a cached state) until all read {@code state}. */
    private static String allSee(List<CircuitBreaker> breakers, State state) throws InterruptedException {
        await("all " + state + ", but saw " + breakers, () -> {
            for (CircuitBreaker breaker : breakers) {
                long permit = breaker.tryAcquirePermit();
                if (permit != CircuitBreaker.NO_PERMIT) {
                    breaker.onSuccess(permit, 0L);
                }
            }
            return breakers.stream().allMatch(breaker -> breaker.getState() == state);
        });
        return "all " + state;
    }

    private static void fail(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onError(permit, 0L, new IOException("dependency down"));
    }

    static void await(BooleanSupplier condition) throws InterruptedException {
        await("condition", condition);
    }

    static void await(Object what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError(what + ": not within 20s");
            }
            Thread.sleep(10);
        }
    }

    /** Instances of one application: each its own store and registry. */
    private abstract static class Instances implements AutoCloseable {

        final List<BreakerRegistry> registries = new ArrayList<>();

        void add(StateStore store) {
            registries.add(BreakerRegistry.of(CONFIG, Map.of(), NanoClock.system(), store));
        }

        List<CircuitBreaker> breakers(String name) throws InterruptedException {
            List<CircuitBreaker> breakers = new ArrayList<>();
            registries.forEach(registry -> breakers.add(registry.breaker(name)));
            await(this::warm);
            return breakers;
        }

        abstract boolean warm();
    }

    private static final class RedisFleet extends Instances {

        private final List<LettuceConnectionFactory> factories = new ArrayList<>();
        private final List<RedisStateStore> stores = new ArrayList<>();

        RedisFleet() {
            RedisStoreSettings settings = new RedisStoreSettings(
                    TTL, TIMEOUT, StoreFailureMode.PROTECT_LOCALLY, Duration.ofDays(1), OUTAGE_AFTER);
            for (int i = 0; i < INSTANCES; i++) {
                LettuceConnectionFactory factory = new LettuceConnectionFactory(
                        new RedisStandaloneConfiguration("127.0.0.1", REDIS.port()),
                        LettuceClientConfiguration.builder()
                                .commandTimeout(Duration.ofSeconds(10))
                                .build());
                factory.afterPropertiesSet();
                factory.start();
                try (var connection = factory.getConnection()) {
                    connection.ping(); // the client's connection is open before the first timed operation
                }
                factories.add(factory);
                RedisStateStore store = new RedisStateStore(factory, settings);
                stores.add(store);
                add(store);
            }
        }

        @Override
        boolean warm() {
            try {
                return REDIS.command("EXISTS", "{breaker:inventory}:state").contains("1")
                        && stores.stream().allMatch(store -> store.getFailureCount() == 0);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
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

    private static final class DynamoFleet extends Instances {

        private final List<DynamoStateStore> stores = new ArrayList<>();

        DynamoFleet(DynamoStores on) {
            DynamoStoreSettings settings = on.settings(TTL, TIMEOUT, StoreFailureMode.PROTECT_LOCALLY, OUTAGE_AFTER);
            for (int i = 0; i < INSTANCES; i++) {
                DynamoStateStore instance = on.store(settings);
                stores.add(instance);
                add(instance);
            }
        }

        @Override
        boolean warm() {
            return stores.stream().allMatch(DynamoStateStore::isWarm);
        }

        @Override
        public void close() {
            stores.forEach(DynamoStateStore::close);
        }
    }
}
