package io.breaker.dynamodb;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spi.StateStore;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.store.StoreFailureMode;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per condition and setting of {@link DynamoStoreAutoConfiguration}, with the starter's registry around it. */
@ExtendWith(OutputCaptureExtension.class)
class DynamoStoreAutoConfigurationTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private final String table = DYNALITE.createTable();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(DynamoStoreAutoConfiguration.class, BreakerAutoConfiguration.class))
            .withPropertyValues("breakers.store.dynamodb.table=" + table);

    @Test
    void breakersStayInMemoryWithoutTheStoreType() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(StateStore.class);
            assertThat(context.getBean(BreakerRegistry.class)
                            .breaker("payments")
                            .isShared())
                    .isFalse();
        });
    }

    @Test
    void storeTypeDynamodbSharesBreakersThroughTheApplicationsClient() {
        DynamoDbClient client = DYNALITE.client();
        runner.withBean(DynamoDbClient.class, () -> client)
                .withPropertyValues(
                        "breakers.store.type=dynamodb",
                        "breakers.store.state-cache-ttl=2s",
                        "breakers.store.timeout=300ms",
                        "breakers.store.failure-mode=reject",
                        "breakers.store.dynamodb.item-expiry=2d")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    DynamoStateStore store = context.getBean(DynamoStateStore.class);
                    assertThat(store.client()).isSameAs(client);
                    assertThat(store.getSettings())
                            .isEqualTo(new DynamoStoreSettings(
                                    table,
                                    Duration.ofSeconds(2),
                                    Duration.ofMillis(300),
                                    StoreFailureMode.REJECT,
                                    Duration.ofDays(2),
                                    DynamoStoreSettings.DEFAULT_OUTAGE_AFTER));
                    assertThat(context.getBean(BreakerRegistry.class)
                                    .breaker("payments")
                                    .isShared())
                            .isTrue();
                    Dynalite.await(store::isWarm);
                    assertThat(context.getBean(DynamoStoreStatus.class).check().available())
                            .isTrue();
                });
    }

    @Test
    void anOldFailureModeNameIsReadAsItsNewOneAndLoggedOnce(CapturedOutput output) {
        runner.withBean(DynamoDbClient.class, DYNALITE::client)
                .withPropertyValues("breakers.store.type=dynamodb", "breakers.store.failure-mode=closed")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(DynamoStateStore.class)
                                    .getSettings()
                                    .failureMode())
                            .isEqualTo(StoreFailureMode.REJECT);
                });
        assertThat(output.getAll().lines().filter(line -> line.contains("is deprecated")))
                .singleElement()
                .asString()
                .contains("breakers.store.failure-mode=closed", "breakers.store.failure-mode=reject");
    }

    @Test
    void withoutAClientBeanTheStoreCreatesOneForTheConfiguredEndpoint() {
        runner.withPropertyValues(
                        "breakers.store.type=dynamodb",
                        "breakers.store.dynamodb.endpoint=http://127.0.0.1:" + DYNALITE.port())
                // the SDK's default chains read the region and the credentials from these
                .withSystemProperties("aws.region=us-east-1", "aws.accessKeyId=test", "aws.secretAccessKey=test")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    DynamoStateStore store = context.getBean(DynamoStateStore.class);
                    context.getBean(BreakerRegistry.class).breaker("payments");
                    Dynalite.await(store::isWarm);
                    assertThat(store.isAvailable()).isTrue();
                });
    }

    /**
     * The Redis store's meter names and tag key, tagged {@code store=dynamodb}: a failure reported while
     * dynalite is frozen is an operation its caller stopped waiting for, and its duration is recorded
     * once dynalite answers it.
     */
    @Test
    void theStoreMetersHaveTheRedisStoresNamesTaggedDynamodb() {
        runner.withBean(DynamoDbClient.class, DYNALITE::client)
                .withPropertyValues("breakers.store.type=dynamodb", "breakers.store.timeout=200ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SimpleMeterRegistry meters = new SimpleMeterRegistry();
                    context.getBean("breakerDynamoStoreMeterBinder", MeterBinder.class)
                            .bindTo(meters);
                    DynamoStateStore store = context.getBean(DynamoStateStore.class);
                    CircuitBreaker breaker =
                            context.getBean(BreakerRegistry.class).breaker("payments");
                    Dynalite.await(store::isWarm);
                    assertThat(meters.getMeters()).hasSize(5).allSatisfy(meter -> {
                        assertThat(meter.getId().getTag("store")).isEqualTo("dynamodb");
                        assertThat(meter.getId().getDescription()).isNotBlank();
                    });
                    assertThat(meters.get("breaker.store.available").gauge().value())
                            .isEqualTo(1.0);
                    assertThat(meters.get("breaker.store.acting.alone").gauge().value())
                            .isZero();
                    assertThat(meters.get("breaker.store.timeouts")
                                    .functionCounter()
                                    .count())
                            .isZero();
                    Timer latency = meters.get("breaker.store.latency").timer();
                    Dynalite.await(() -> latency.count() > 0); // the refresh that made the store warm

                    long timed = latency.count();
                    DYNALITE.pause();
                    try {
                        breaker.onError(breaker.acquirePermit(), 1_000, new IOException("reset"));
                        assertThat(meters.get("breaker.store.timeouts")
                                        .functionCounter()
                                        .count())
                                .isEqualTo(1.0);
                        assertThat(meters.get("breaker.store.failures")
                                        .functionCounter()
                                        .count())
                                .isGreaterThanOrEqualTo(1.0);
                    } finally {
                        DYNALITE.resume();
                    }
                    Dynalite.await(() -> latency.count() > timed); // the late answer ends the frozen operation
                });
    }

    @Test
    void aBreakerCanBeSharedAloneWhileTheOthersStayInMemory() {
        runner.withBean(DynamoDbClient.class, DYNALITE::client)
                .withPropertyValues("breakers.instances.payments.store.type=dynamodb")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.breaker("payments").isShared()).isTrue();
                    assertThat(registry.breaker("search").isShared()).isFalse();
                });
    }

    @Test
    void aBadTableNameStopsStartUpNamingTheProperty() {
        runner.withPropertyValues("breakers.store.dynamodb.table=x").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("breakers.store.dynamodb.table")
                    .hasMessageContaining("3 to 255 characters");
        });
    }

    @Test
    void aTimeoutNotShorterThanTheCacheTtlStopsStartUp() {
        runner.withPropertyValues("breakers.store.timeout=1s", "breakers.store.state-cache-ttl=1s")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("breakers.store.timeout")
                            .hasMessageContaining("shorter than breakers.store.state-cache-ttl");
                });
    }

    @Test
    void anUnknownStoreTypeStopsStartUp() {
        runner.withPropertyValues("breakers.store.type=dynamo").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("breakers.store.type");
        });
    }

    @Test
    void aMisspeltKeyIsRejected() {
        runner.withPropertyValues("breakers.store.dynamodb.tabel=other").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("breakers.store.dynamodb.table");
        });
    }

    @Test
    void thePropertiesDefaultsAreTheSettingsDefaults() {
        assertThat(new DynamoStoreProperties().toSettings())
                .isEqualTo(DynamoStoreSettings.defaults(DynamoStoreSettings.DEFAULT_TABLE));
    }
}
