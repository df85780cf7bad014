package io.breaker;

import io.breaker.internal.Integration;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The registry of named breakers. */
class BreakerRegistryTest {

    private final BreakerConfig defaults = BreakerConfig.builder()
            .waitDurationInOpenState(Duration.ofSeconds(5))
            .build();
    private final BreakerConfig payments = BreakerConfig.builder()
            .waitDurationInOpenState(Duration.ofMinutes(2))
            .build();
    private final FakeClock clock = new FakeClock();
    private final BreakerRegistry registry = BreakerRegistry.of(defaults, Map.of("payments", payments), clock);

    @Test
    void createsABreakerOnceAndReturnsTheSameOneAfterwards() {
        CircuitBreaker first = registry.breaker("inventory");

        assertThat(registry.breaker("inventory")).isSameAs(first);
        assertThat(registry.breaker("inventory", payments)).isSameAs(first);
        assertThat(Integration.clock(first)).isSameAs(clock);
    }

    @Test
    void namedConfigWinsOverTheDefault() {
        assertThat(registry.breaker("payments").getConfig()).isSameAs(payments);
        assertThat(registry.breaker("inventory").getConfig()).isSameAs(defaults);
        assertThat(registry.configFor("anything")).isSameAs(defaults);
        assertThat(registry.configuredNames()).containsExactly("payments");
        assertThat(registry.getDefaultConfig()).isSameAs(defaults);
        assertThat(BreakerRegistry.ofDefaults().breaker("x").getConfig()).isSameAs(BreakerConfig.ofDefaults());
    }

    @Test
    void findNeverCreates() {
        assertThat(registry.find("payments")).isEmpty();
        assertThat(registry.all()).isEmpty();

        CircuitBreaker created = registry.breaker("payments");

        assertThat(registry.find("payments")).containsSame(created);
        assertThat(registry.all()).containsExactly(created);
    }

    @Test
    void listsBreakersSortedByName() {
        registry.breaker("zeta");
        registry.breaker("alpha");
        registry.breaker("mu");

        assertThat(registry.all()).extracting(CircuitBreaker::getName).containsExactly("alpha", "mu", "zeta");
    }

    @Test
    void creationCallbackSeesExistingAndLaterBreakersOnceEach() {
        registry.breaker("a");
        List<String> seen = new ArrayList<>();

        registry.onBreakerCreated(b -> seen.add(b.getName()));
        registry.breaker("b");
        registry.breaker("a");
        registry.breaker("b");

        assertThat(seen).containsExactly("a", "b");
    }

    @Test
    void manyThreadsAskingForTheSameNameGetOneInstance() throws Exception {
        int threads = 16;
        List<String> created = new CopyOnWriteArrayList<>();
        registry.onBreakerCreated(b -> created.add(b.getName()));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                String name = "shared-" + round;
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<CircuitBreaker>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    results.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return registry.breaker(name);
                    }));
                }
                Set<CircuitBreaker> distinct = ConcurrentHashMap.newKeySet();
                for (Future<CircuitBreaker> result : results) {
                    distinct.add(result.get(10, TimeUnit.SECONDS));
                }
                assertThat(distinct).as("instances for %s", name).hasSize(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(created).hasSize(50).doesNotHaveDuplicates();
    }
}
