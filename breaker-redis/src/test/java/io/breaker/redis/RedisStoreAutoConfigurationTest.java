package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.redis.test.RedisLine;
import io.breaker.spi.StateStore;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer;
import io.breaker.spring.store.StoreFailureMode;
import io.breaker.spring.test.BootLine;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per condition of {@link RedisStoreAutoConfiguration}, with the starter's registry around it. */
@Tag(BootLine.TAG)
class RedisStoreAutoConfigurationTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    RedisLine.redisAutoConfiguration(),
                    RedisStoreAutoConfiguration.class,
                    BreakerAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port());

    @Test
    void breakersStayInMemoryWithoutTheStoreType() {
        runner.withPropertyValues("breakers.instances.payments.failure-rate-threshold=50")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(StateStore.class);
                    assertThat(context.getBean(BreakerRegistry.class)
                                    .breaker("payments")
                                    .isShared())
                            .isFalse();
                });
    }

    @Test
    void storeTypeRedisSharesEveryBreakerOfTheStartersRegistry() {
        runner.withPropertyValues(
                        "breakers.store.type=redis",
                        "breakers.store.state-cache-ttl=2s",
                        "breakers.store.timeout=80ms",
                        "breakers.store.failure-mode=reject")
                .run(context -> {
                    RedisStateStore store = context.getBean(RedisStateStore.class);
                    assertThat(store.getSettings())
                            .isEqualTo(new RedisStoreSettings(
                                    Duration.ofSeconds(2),
                                    Duration.ofMillis(80),
                                    StoreFailureMode.REJECT,
                                    RedisStoreSettings.DEFAULT_KEY_EXPIRY));
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.getStateStore()).isSameAs(store);
                    assertThat(registry.breaker("anything").isShared()).isTrue();
                });
    }

    @Test
    void aBreakersOwnStoreTypeOverridesTheDefault() {
        runner.withPropertyValues(
                        "breakers.instances.payments.store.type=redis",
                        "breakers.instances.search.failure-rate-threshold=50")
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.breaker("payments").isShared()).isTrue();
                    assertThat(registry.breaker("search").isShared()).isFalse();
                });
        runner.withPropertyValues("breakers.store.type=redis", "breakers.instances.search.store.type=memory")
                .run(context -> {
                    StateStore store = context.getBean(StateStore.class);
                    assertThat(store.attach("search", BreakerConfig.ofDefaults()))
                            .isNull();
                    assertThat(store.attach("payments", BreakerConfig.ofDefaults()))
                            .isNotNull();
                });
    }

    @Test
    void aTimeoutNotShorterThanTheCacheTtlStopsStartUpNamingTheProperty() {
        runner.withPropertyValues("breakers.store.type=redis", "breakers.store.timeout=5s")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .isInstanceOf(InvalidStorePropertyException.class)
                            .hasMessage(
                                    "breakers.store.timeout must be shorter than breakers.store.state-cache-ttl (1s): "
                                            + "tens of milliseconds, such as 50ms, was 5s");
                    FailureAnalysis analysis = new BreakerFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("'breakers.store.timeout'", "'5s'");
                    assertThat(analysis.getAction()).startsWith("Set 'breakers.store.timeout' to shorter than");
                });
    }

    @Test
    void anUnknownStoreTypeStopsStartUpListingTheStoreTypes() {
        for (String property : new String[] {"breakers.store.type", "breakers.instances.payments.store.type"}) {
            runner.withPropertyValues(property + "=mongo").run(context -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = new BreakerFailureAnalyzer().analyze(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains("'" + property + "'", "'mongo'");
                assertThat(analysis.getAction()).isEqualTo("Set '" + property + "' to one of memory, redis, dynamodb.");
            });
        }
    }

    @Test
    void theStoreSettingsAreCheckedWhileEveryBreakerIsInMemory() {
        runner.withPropertyValues("breakers.store.timeout=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .isInstanceOf(InvalidStorePropertyException.class)
                    .hasMessageStartingWith("breakers.store.timeout must be a duration of at least 1ms");
        });
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(StateStore.class);
            assertThat(context.getBean(RedisStoreSettings.class)).isEqualTo(RedisStoreSettings.defaults());
        });
    }

    @Test
    void aStoreDurationBeyondWhatADurationInNanosecondsHoldsNamesThePropertyWithEitherStoreType() {
        for (String type : new String[] {"redis", "memory"}) {
            for (String setting : new String[] {"state-cache-ttl", "key-expiry", "outage-after"}) {
                runner.withPropertyValues("breakers.store.type=" + type, "breakers.store." + setting + "=200000d")
                        .run(context -> {
                            assertThat(context).as(type + " " + setting).hasFailed();
                            FailureAnalysis analysis =
                                    new BreakerFailureAnalyzer().analyze(context.getStartupFailure());
                            assertThat(analysis).as(type + " " + setting).isNotNull();
                            assertThat(analysis.getDescription())
                                    .contains("'breakers.store." + setting + "'", "'200000d'");
                            assertThat(analysis.getAction()).contains("at most 106751d");
                        });
            }
        }
    }

    @Test
    void aWrongFailureModeListsTheCurrentModesAlsoWhileEveryBreakerIsInMemory() {
        runner.withPropertyValues("breakers.store.type=memory", "breakers.store.failure-mode=maybe")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new BreakerFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("'breakers.store.failure-mode'", "'maybe'");
                    assertThat(analysis.getAction())
                            .isEqualTo("Set 'breakers.store.failure-mode' to one of protect-locally, reject.");
                });
    }

    @Test
    void thisModuleDeclaresItsKeysSoAMisspeltOneStopsStartUpNamingTheNearest() {
        runner.withPropertyValues("breakers.instances.dep.store.tpye=redis").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BreakerFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("'breakers.instances.dep.store.tpye'");
            assertThat(analysis.getAction()).contains("'breakers.instances.dep.store.type'");
        });
        runner.withPropertyValues("breakers.store.timout=40ms")
                .run(context -> assertThat(new BreakerFailureAnalyzer()
                                .analyze(context.getStartupFailure())
                                .getAction())
                        .contains("'breakers.store.timeout'"));
        runner.withPropertyValues("breakers.instances.dep.store.type=memory", "breakers.store.outage-after=2s")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void thePropertiesDefaultsAreTheSettingsDefaults() {
        assertThat(new RedisStoreProperties().toSettings()).isEqualTo(RedisStoreSettings.defaults());
    }

    @Test
    void nothingChangesWithoutSpringDataRedisOnTheClasspath() {
        runner.withPropertyValues("breakers.store.type=redis")
                .withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(StateStore.class);
                    assertThat(context.getBean(BreakerRegistry.class)
                                    .breaker("payments")
                                    .isShared())
                            .isFalse();
                });
    }

    @Test
    void storeFailuresTimeoutsAvailabilityActingAloneAndLatencyAreExportedAsDescribedMeters() {
        runner.withPropertyValues("breakers.store.type=redis").run(context -> {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            context.getBean("breakerStateStoreMeterBinder", MeterBinder.class).bindTo(meters);
            assertThat(meters.get("breaker.store.failures")
                            .tag("store", "redis")
                            .functionCounter()
                            .count())
                    .isZero();
            assertThat(meters.get("breaker.store.timeouts")
                            .tag("store", "redis")
                            .functionCounter()
                            .count())
                    .isZero();
            assertThat(meters.get("breaker.store.available")
                            .tag("store", "redis")
                            .gauge()
                            .value())
                    .isEqualTo(1.0);
            assertThat(meters.get("breaker.store.acting.alone")
                            .tag("store", "redis")
                            .gauge()
                            .value())
                    .isZero();
            CircuitBreaker breaker = context.getBean(BreakerRegistry.class).breaker("payments");
            // The failure goes to Redis on a command thread, which records the command's duration
            // when Redis answers; a bounded poll, as the caller may not wait for that answer.
            breaker.onError(breaker.acquirePermit(), 1_000, new IOException("reset"));
            Timer latency =
                    meters.get("breaker.store.latency").tag("store", "redis").timer();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (latency.count() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(latency.count()).isPositive();
            assertThat(latency.max(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(meters.getMeters())
                    .hasSize(5)
                    .allSatisfy(
                            meter -> assertThat(meter.getId().getDescription()).isNotBlank());
        });
    }
}
