package io.breaker.redis;

import io.breaker.spi.StateStore;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per condition of {@link RedisStoreHealthAutoConfiguration}. */
class RedisStoreHealthAutoConfigurationTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class, RedisStoreAutoConfiguration.class,
                    BreakerAutoConfiguration.class, RedisStoreHealthAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port());

    @Test
    void aSharedStoreGetsTheBreakerStoreHealthContributor() {
        runner.withPropertyValues("breakers.store.type=redis", "breakers.store.failure-mode=reject").run(context -> {
            Health health = context.getBean("breakerStoreHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).isEqualTo(Map.of("available", true, "actingAlone", false,
                    "failureMode", "reject", "failedOperations", 0L));
        });
    }

    @Test
    void noContributorWhileEveryBreakerIsInMemory() {
        runner.run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(BreakerStoreHealthIndicator.class).doesNotHaveBean(BreakerStoreStatus.class));
    }

    @Test
    void noContributorWithoutTheActuator() {
        runner.withPropertyValues("breakers.store.type=redis")
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RedisStateStore.class)
                        .doesNotHaveBean("breakerStoreHealthIndicator"));
    }

    @Test
    void theContributorCanBeSwitchedOff() {
        runner.withPropertyValues("breakers.store.type=redis", "management.health.breakerstore.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(RedisStateStore.class)
                        .doesNotHaveBean(BreakerStoreHealthIndicator.class));
    }

    @Test
    void anApplicationsOwnStoreThatIsNotRedisGetsNoContributor() {
        runner.withPropertyValues("breakers.store.type=redis")
                .withBean("myStore", StateStore.class, () -> (name, config) -> null)
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RedisStateStore.class)
                        .doesNotHaveBean(BreakerStoreHealthIndicator.class));
    }

    @Test
    void anApplicationsOwnIndicatorReplacesOurs() {
        HealthIndicator own = () -> Health.down().build();
        runner.withPropertyValues("breakers.store.type=redis")
                .withBean("breakerStoreHealthIndicator", HealthIndicator.class, () -> own)
                .run(context -> assertThat(context.getBean("breakerStoreHealthIndicator")).isSameAs(own));
    }
}
