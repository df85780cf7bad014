package io.breaker.redis;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Values in messages are written as a user writes them in YAML, so they can be copied back. */
class PropertyValuesTest {

    @Test
    void aDurationIsWrittenInTheLargestUnitThatExpressesItExactly() {
        assertThat(PropertyValues.of(Duration.ofDays(7))).isEqualTo("7d");
        assertThat(PropertyValues.of(Duration.ofSeconds(120))).isEqualTo("2m");
        assertThat(PropertyValues.of(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(PropertyValues.of(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(PropertyValues.of(Duration.ofNanos(500_000))).isEqualTo("500us");
        assertThat(PropertyValues.of(Duration.ofNanos(7))).isEqualTo("7ns");
        assertThat(PropertyValues.of(Duration.ZERO)).isEqualTo("0ms");
        assertThat(PropertyValues.of(Duration.ofMillis(-5))).isEqualTo("-5ms");
        assertThat(PropertyValues.of(Duration.ofDays(200_000))).isEqualTo("PT4800000H");
        assertThat(PropertyValues.of((Duration) null)).isEmpty();
    }

    @Test
    void anEnumPropertyAcceptsItsConstantsExceptTheDeprecatedOnes() {
        assertThat(PropertyValues.of(StoreFailureMode.PROTECT_LOCALLY)).isEqualTo("protect-locally");
        assertThat(PropertyValues.allowed(StoreFailureMode.class)).isEqualTo("protect-locally, reject");
        assertThat(PropertyValues.allowed(StoreType.class)).isEqualTo("memory, redis");
    }
}
