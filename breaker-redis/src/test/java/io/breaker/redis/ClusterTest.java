package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static io.breaker.redis.Fleet.allIn;
import static io.breaker.redis.Fleet.await;
import static io.breaker.redis.Fleet.awaitCalling;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Against Redis Cluster: a script touching keys of two slots fails there (CROSSSLOT), so this shows
 * that one breaker's keys share a slot through their hash tag, and that a cluster connection factory
 * works as it is.
 */
@Tag(BootLine.TAG)
class ClusterTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.cluster();

    @Test
    void aFleetOnRedisClusterTripsProbesAndFollowsTheOperatorTogether() throws Exception {
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
                .minimumNumberOfCalls(4)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMillis(200))
                .build();
        RedisStoreSettings settings = RedisStoreSettings.defaults()
                .withStateCacheTtl(Duration.ofMillis(300))
                .withTimeout(Duration.ofMillis(250));
        try (Fleet fleet = new Fleet(
                () -> new LettuceConnectionFactory(
                        new RedisClusterConfiguration(List.of("127.0.0.1:" + redis.port())), Fleet.CLIENT),
                2,
                config,
                settings)) {
            List<CircuitBreaker> breakers = fleet.breakers("cluster-wholesaler");
            for (int i = 0; i < 2; i++) {
                for (CircuitBreaker breaker : breakers) {
                    long permit = breaker.tryAcquirePermit();
                    assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
                    breaker.onError(permit, 0L, new IOException("down"));
                }
            }
            // 4 failures in the fleet, 2 on each instance: only the shared window (the scripts, which a
            // CROSSSLOT error would stop) can have tripped it.
            assertThat(breakers.get(1).getState()).isEqualTo(State.OPEN);
            // The other learns of the fleet's trip from the answer to its next failure report.
            awaitCalling(Duration.ofSeconds(2), Fleet::failEach, breakers, () -> allIn(breakers, State.OPEN));

            await(Duration.ofSeconds(3), () -> {
                for (CircuitBreaker breaker : breakers) {
                    long permit2 = breaker.tryAcquirePermit();
                    if (permit2 != CircuitBreaker.NO_PERMIT) {
                        breaker.onSuccess(permit2, 0L);
                    }
                }
                return allIn(breakers, State.CLOSED);
            });

            breakers.get(0).forceOpen();
            awaitCalling(Duration.ofSeconds(2), Fleet::succeedEach, breakers, () -> allIn(breakers, State.FORCED_OPEN));
        }
    }
}
