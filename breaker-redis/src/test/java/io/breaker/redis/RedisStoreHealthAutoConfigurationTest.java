package io.breaker.redis;

import io.breaker.redis.test.RedisLine;
import io.breaker.spi.StateStore;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One test per condition of the {@code breakerStore} health contributor's auto-configuration: on
 * Boot 3 breaker-redis's {@link RedisStoreHealthAutoConfiguration}, on Boot 4 the Boot 4 starter's
 * (see {@link RedisLine#storeHealthAutoConfiguration()}).
 */
@Tag(BootLine.TAG)
class RedisStoreHealthAutoConfigurationTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    RedisLine.redisAutoConfiguration(),
                    RedisStoreAutoConfiguration.class,
                    BreakerAutoConfiguration.class,
                    RedisLine.storeHealthAutoConfiguration()))
            .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port());

    @Test
    void aSharedStoreGetsTheBreakerStoreHealthContributor() {
        runner.withPropertyValues("breakers.store.type=redis", "breakers.store.failure-mode=reject")
                .run(context -> {
                    Object indicator =
                            context.getBean("breakerStoreHealthIndicator", RedisLine.storeHealthIndicatorType());
                    assertThat(RedisLine.status(indicator)).isEqualTo("UP");
                    assertThat(RedisLine.details(indicator))
                            .isEqualTo(Map.of(
                                    "available",
                                    true,
                                    "actingAlone",
                                    false,
                                    "failureMode",
                                    "reject",
                                    "failedOperations",
                                    0L));
                });
    }

    @Test
    void noContributorWhileEveryBreakerIsInMemory() {
        runner.run(context -> assertThat(context)
                .hasNotFailed()
                .doesNotHaveBean(RedisLine.storeHealthIndicatorType())
                .doesNotHaveBean(BreakerStoreStatus.class));
    }

    @Test
    void noContributorWithoutTheActuator() {
        runner.withPropertyValues("breakers.store.type=redis")
                .withClassLoader(new FilteredClassLoader(RedisLine.actuatorPackages()))
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasSingleBean(RedisStateStore.class)
                        .doesNotHaveBean("breakerStoreHealthIndicator"));
    }

    @Test
    void theContributorCanBeSwitchedOff() {
        runner.withPropertyValues("breakers.store.type=redis", "management.health.breakerstore.enabled=false")
                .run(context -> assertThat(context)
                        .hasSingleBean(RedisStateStore.class)
                        .doesNotHaveBean(RedisLine.storeHealthIndicatorType()));
    }

    @Test
    void anApplicationsOwnStoreThatIsNotRedisGetsNoContributor() {
        runner.withPropertyValues("breakers.store.type=redis")
                .withBean("myStore", StateStore.class, () -> (name, config) -> null)
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(RedisStateStore.class)
                        .doesNotHaveBean(RedisLine.storeHealthIndicatorType()));
    }

    @Test
    void anApplicationsOwnIndicatorReplacesOurs() {
        Object own = RedisLine.downHealthIndicator();
        runner.withPropertyValues("breakers.store.type=redis")
                .withBean("breakerStoreHealthIndicator", healthIndicatorType(), () -> own)
                .run(context -> assertThat(context.getBean("breakerStoreHealthIndicator"))
                        .isSameAs(own));
    }

    @SuppressWarnings("unchecked")
    private static Class<Object> healthIndicatorType() {
        return (Class<Object>) RedisLine.healthIndicatorType();
    }
}
