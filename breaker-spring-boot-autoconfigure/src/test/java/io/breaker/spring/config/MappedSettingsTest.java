package io.breaker.spring.config;

import io.breaker.BreakerConfig;
import io.breaker.Setting;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A mapping has exactly one line per setting, and a value of its setting's type on each. */
class MappedSettingsTest {

    @Test
    void aSettingWithoutALineFailsTheMapping() {
        assertThatThrownBy(() -> MappedSettings.map(everySettingBut(BreakerConfig.PROBE_LEASE)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no line maps a property onto the setting probeLease");
    }

    @Test
    void aSettingWithTwoLinesFailsTheMapping() {
        assertThatThrownBy(() -> MappedSettings.map(everySettingBut(null)
                        .andThen(map -> map.from(() -> Duration.ofSeconds(1)).to(BreakerConfig.PROBE_LEASE))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("two lines map properties onto the setting probeLease");
    }

    @Test
    void aValueGoesToItsSettingAsItIsAndNullMapsToNothing() {
        MappedSettings mapped = MappedSettings.map(everySettingBut(BreakerConfig.FAILURE_RATE_THRESHOLD)
                .andThen(map -> map.from(() -> 25f).to(BreakerConfig.FAILURE_RATE_THRESHOLD)));

        assertThat(mapped.value(BreakerConfig.FAILURE_RATE_THRESHOLD, "breakers.defaults.failure-rate-threshold", null))
                .isEqualTo(25f);
        assertThat(mapped.sets(BreakerConfig.PROBE_LEASE)).isFalse();
    }

    @Test
    void aClassNameThatIsNoThrowableIsReportedAsItsElement() {
        MappedSettings mapped = MappedSettings.map(everySettingBut(BreakerConfig.RECORD_EXCEPTIONS)
                .andThen(map -> map.fromClassNames(() -> List.of("java.io.IOException", "java.lang.String"))
                        .to(BreakerConfig.RECORD_EXCEPTIONS)));

        assertThat(mapped.written(BreakerConfig.RECORD_EXCEPTIONS))
                .isEqualTo(List.of("java.io.IOException", "java.lang.String"));
        assertThatThrownBy(() -> mapped.value(
                        BreakerConfig.RECORD_EXCEPTIONS,
                        "breakers.defaults.record-exceptions",
                        getClass().getClassLoader()))
                .isInstanceOf(InvalidBreakerPropertyException.class)
                .hasMessage(
                        "breakers.defaults.record-exceptions[1] must be fully qualified names of classes on the"
                                + " classpath that extend java.lang.Throwable, was java.lang.String (the class is not a Throwable)");
    }

    @Test
    void aClassNameNotOnTheClasspathIsReportedAsItsElement() {
        assertThatThrownBy(() -> ExceptionClasses.load(
                        "breakers.instances.wholesaler.ignore-exceptions",
                        List.of("com.example.Missing"),
                        getClass().getClassLoader()))
                .isInstanceOf(InvalidBreakerPropertyException.class)
                .hasMessage(
                        "breakers.instances.wholesaler.ignore-exceptions[0] must be fully qualified names of classes"
                                + " on the classpath that extend java.lang.Throwable, was com.example.Missing (no such class on"
                                + " the classpath)");
    }

    /** A line that maps nothing (a null getter) for every setting except {@code left}. */
    private static Consumer<MappedSettings.Mapper> everySettingBut(Setting<?> left) {
        return map -> {
            for (Setting<?> setting : BreakerConfig.settings()) {
                if (setting != left) {
                    unset(map, setting);
                }
            }
        };
    }

    private static <T> void unset(MappedSettings.Mapper map, Setting<T> setting) {
        map.<T>from(() -> null).to(setting);
    }
}
