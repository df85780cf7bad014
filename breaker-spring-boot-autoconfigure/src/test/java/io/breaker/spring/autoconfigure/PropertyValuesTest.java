package io.breaker.spring.autoconfigure;

import io.breaker.SlidingWindowType;
import io.breaker.spring.config.PropertyValues;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

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
        assertThat(PropertyValues.of(Duration.ofDays(200_000))).isEqualTo("200000d");
        assertThat(PropertyValues.of(Duration.ofDays(200_000).plusNanos(1))).isEqualTo("PT4800000H0.000000001S");
        assertThat(PropertyValues.of((Duration) null)).isEmpty();
    }

    @Test
    void anEnumIsWrittenInLowerCaseWithDashesAndItsDeprecatedConstantsAreNotSuggested() {
        assertThat(PropertyValues.of(SlidingWindowType.TIME_BASED)).isEqualTo("time-based");
        assertThat(PropertyValues.allowed(SlidingWindowType.class)).isEqualTo("count-based, time-based");
        assertThat(PropertyValues.allowed(Legacy.class)).isEqualTo("current");
    }

    @Test
    void otherValues() {
        assertThat(PropertyValues.of((Object) 150f)).isEqualTo("150");
        assertThat(PropertyValues.of((Object) 12.5f)).isEqualTo("12.5");
        assertThat(PropertyValues.of(List.of(IllegalStateException.class)))
                .isEqualTo("java.lang.IllegalStateException");
    }

    @Test
    void anEnvironmentVariableDropsDashesAndSeparatesPartsWithUnderscores() {
        assertThat(PropertyValues.environmentVariable("breakers.defaults.failure-rate-threshold"))
                .isEqualTo("BREAKERS_DEFAULTS_FAILURERATETHRESHOLD");
        assertThat(PropertyValues.environmentVariable("breakers.instances.dep.record-exceptions[0]"))
                .isEqualTo("BREAKERS_INSTANCES_DEP_RECORDEXCEPTIONS_0");
    }

    enum Legacy {
        CURRENT,
        @Deprecated
        OLD
    }
}
