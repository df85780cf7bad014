package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The rules of {@link RedisStoreSettings}, without Spring and without Redis. */
class RedisStoreSettingsTest {

    private static final RedisStoreSettings DEFAULTS = RedisStoreSettings.defaults();

    @Test
    @SuppressWarnings("deprecation")
    void deprecatedFailureModesAreKeptAsTheirNewNames() {
        assertThat(StoreFailureMode.OPEN.canonical()).isEqualTo(StoreFailureMode.PROTECT_LOCALLY);
        assertThat(StoreFailureMode.CLOSED.canonical()).isEqualTo(StoreFailureMode.REJECT);
        assertThat(StoreFailureMode.PROTECT_LOCALLY.canonical()).isEqualTo(StoreFailureMode.PROTECT_LOCALLY);
        assertThat(StoreFailureMode.REJECT.canonical()).isEqualTo(StoreFailureMode.REJECT);

        assertThat(DEFAULTS.withFailureMode(StoreFailureMode.OPEN).failureMode())
                .isEqualTo(StoreFailureMode.PROTECT_LOCALLY);
        assertThat(DEFAULTS.withFailureMode(StoreFailureMode.CLOSED).failureMode())
                .isEqualTo(StoreFailureMode.REJECT);
        assertThat(DEFAULTS.withFailureMode(StoreFailureMode.CLOSED))
                .isEqualTo(DEFAULTS.withFailureMode(StoreFailureMode.REJECT));
    }

    @Test
    void theDefaultFailureModeProtectsLocally() {
        assertThat(DEFAULTS.failureMode()).isEqualTo(StoreFailureMode.PROTECT_LOCALLY);
    }

    @Test
    void aFailureModeReadsAsItsPropertyValue() {
        assertThat(StoreFailureMode.PROTECT_LOCALLY).hasToString("protect-locally");
        assertThat(StoreFailureMode.REJECT).hasToString("reject");
    }

    @ParameterizedTest
    @ValueSource(strings = {"state-cache-ttl", "timeout", "key-expiry", "outage-after"})
    void aDurationBelowOneMillisecondIsRejectedNamingTheProperty(String property) {
        Function<Duration, RedisStoreSettings> with = switch (property) {
            case "state-cache-ttl" -> DEFAULTS::withStateCacheTtl;
            case "timeout" -> DEFAULTS::withTimeout;
            case "outage-after" -> DEFAULTS::withOutageAfter;
            default -> DEFAULTS::withKeyExpiry;
        };
        for (Duration tooShort : new Duration[] {
            Duration.ofNanos(500_000), Duration.ofNanos(999_999), Duration.ZERO, Duration.ofMillis(-5)
        }) {
            assertThatThrownBy(() -> with.apply(tooShort))
                    .isInstanceOf(InvalidStorePropertyException.class)
                    .hasMessageStartingWith("breakers.store." + property + " must be ")
                    .hasMessageContaining("at least 1ms")
                    .satisfies(e -> assertThat(((InvalidStorePropertyException) e).getProperty())
                            .isEqualTo("breakers.store." + property));
        }
        assertThatThrownBy(() -> with.apply(Duration.ofNanos(500_000))).hasMessageEndingWith("was 500us");
        assertThatThrownBy(() -> with.apply(null))
                .isInstanceOf(InvalidStorePropertyException.class)
                .hasMessageStartingWith("breakers.store." + property + " must be ");
    }

    @Test
    void oneMillisecondIsAccepted() {
        RedisStoreSettings shortest = new RedisStoreSettings(
                Duration.ofMillis(2), Duration.ofMillis(1), StoreFailureMode.PROTECT_LOCALLY, Duration.ofMillis(1));
        assertThat(shortest.timeout()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void theTimeoutMustBeShorterThanTheCacheTtl() {
        assertThatThrownBy(() -> DEFAULTS.withTimeout(Duration.ofSeconds(1)))
                .isInstanceOf(InvalidStorePropertyException.class)
                .hasMessage("breakers.store.timeout must be shorter than breakers.store.state-cache-ttl (1s): "
                        + "tens of milliseconds, such as 50ms, was 1s");
    }

    @Test
    void aMissingFailureModeListsTheAllowedValues() {
        assertThatThrownBy(() -> DEFAULTS.withFailureMode(null))
                .isInstanceOf(InvalidStorePropertyException.class)
                .hasMessage("breakers.store.failure-mode must be one of protect-locally, reject, was ");
    }

    @Test
    void theKeyExpiryMustOutliveTheWaitPlusTheProbeLease() {
        BreakerConfig config = BreakerConfig.builder()
                .waitDurationInOpenState(Duration.ofSeconds(30))
                .probeLease(Duration.ofSeconds(60))
                .build();

        RedisStoreSettings exactlyTheSum = DEFAULTS.withKeyExpiry(Duration.ofSeconds(90));
        assertThatThrownBy(() -> exactlyTheSum.requireKeyExpiryCovers("payments", config))
                .isInstanceOf(InvalidStorePropertyException.class)
                .hasMessage("breakers.store.key-expiry must be longer than 90s, the wait-duration-in-open-state (30s) "
                        + "plus the probe-lease (1m) of the shared breaker 'payments' (or those two shorter), was 90s")
                .satisfies(e -> {
                    InvalidStorePropertyException invalid = (InvalidStorePropertyException) e;
                    assertThat(invalid.getProperty()).isEqualTo("breakers.store.key-expiry");
                    assertThat(invalid.getValue()).isEqualTo("90s");
                });

        assertThatCode(() ->
                        DEFAULTS.withKeyExpiry(Duration.ofMillis(90_001)).requireKeyExpiryCovers("payments", config))
                .doesNotThrowAnyException();
        assertThatCode(() -> DEFAULTS.requireKeyExpiryCovers("payments", config))
                .doesNotThrowAnyException();
    }

    @Test
    void anOutageCannotBeDeclaredFasterThanOneTimeout() {
        assertThatThrownBy(() -> DEFAULTS.withOutageAfter(Duration.ofMillis(20)))
                .isInstanceOf(InvalidStorePropertyException.class)
                .hasMessageContaining("breakers.store.outage-after")
                .hasMessageContaining("at least breakers.store.timeout (50ms)");
        assertThat(DEFAULTS.withOutageAfter(Duration.ofMillis(50)).outageAfter())
                .isEqualTo(Duration.ofMillis(50));
        assertThat(DEFAULTS.outageAfter()).isEqualTo(Duration.ofSeconds(1));
    }
}
