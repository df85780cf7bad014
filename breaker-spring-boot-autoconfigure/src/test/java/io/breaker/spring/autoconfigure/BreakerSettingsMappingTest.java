package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.Setting;
import io.breaker.SlidingWindowType;
import io.breaker.spring.config.ConfiguredSettings;
import io.breaker.spring.config.MappedSettings;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BreakerSettingsMapping} has a line for every setting of {@link BreakerConfig#settings()}, and
 * each line reads the property named after its setting: a setting forgotten there, or a line that
 * reads a neighbour's getter of the same type, fails here. (That every property has a setting of its
 * name is {@link ConfigurationMetadataTest}'s part.)
 */
class BreakerSettingsMappingTest {

    @Test
    void eachSettingIsReadFromThePropertyNamedAfterIt() {
        BreakerProperties.Settings settings = new BreakerProperties.Settings();
        BreakerProperties.Faults faults = new BreakerProperties.Faults();
        BeanWrapper properties = PropertyAccessorFactory.forBeanPropertyAccess(settings);
        BeanWrapper faultProperties = PropertyAccessorFactory.forBeanPropertyAccess(faults);
        Map<Setting<?>, Object> written = new LinkedHashMap<>();
        int n = 0;
        for (Setting<?> setting : BreakerConfig.settings()) {
            Object value = distinctValue(setting, ++n);
            if (setting.name().startsWith("fault")) { // faultLatencyRate is latencyRate in breakers.faults.<name>
                String shortName = setting.name().substring("fault".length());
                faultProperties.setPropertyValue(
                        Character.toLowerCase(shortName.charAt(0)) + shortName.substring(1), value);
            } else {
                properties.setPropertyValue(setting.name(), value);
            }
            written.put(setting, value);
        }

        MappedSettings mapped = BreakerSettingsMapping.of(settings, faults);

        written.forEach((setting, value) -> {
            assertThat(mapped.sets(setting)).as("%s is set", setting.name()).isTrue();
            assertThat(mapped.written(setting))
                    .as("the value the line of %s reads", setting.name())
                    .isEqualTo(value);
        });
    }

    @Test
    void aSectionThatSetsNothingMapsNothing() {
        MappedSettings mapped = BreakerSettingsMapping.of(new BreakerProperties.Settings());

        for (Setting<?> setting : BreakerConfig.settings()) {
            assertThat(mapped.sets(setting)).as(setting.name()).isFalse();
            assertThat(mapped.value(setting, "breakers.defaults." + setting.propertyName(), null))
                    .isNull();
        }
    }

    @Test
    void exceptionClassesAreLoadedByName() {
        BreakerProperties.Settings settings = new BreakerProperties.Settings();
        settings.setIgnoreExceptions(List.of("java.lang.IllegalArgumentException", " java.io.IOException "));

        assertThat(BreakerSettingsMapping.of(settings)
                        .value(
                                BreakerConfig.IGNORE_EXCEPTIONS,
                                "breakers.defaults.ignore-exceptions",
                                getClass().getClassLoader()))
                .containsExactly(IllegalArgumentException.class, java.io.IOException.class);
    }

    @Test
    void aSettingIsConfiguredWhenTheBreakersOwnSectionOrTheDefaultsSetIt() {
        BreakerProperties properties = new BreakerProperties();
        properties.getDefaults().setFailureRateThreshold(30f);
        BreakerProperties.Settings wholesaler = new BreakerProperties.Settings();
        wholesaler.setProbeLease(Duration.ofSeconds(5));
        properties.getInstances().put("wholesaler", wholesaler);

        ConfiguredSettings configured = BreakerSettingsMapping.configuredSettings(properties);

        assertThat(configured.sets("wholesaler", BreakerConfig.PROBE_LEASE)).isTrue();
        assertThat(configured.sets("wholesaler", BreakerConfig.FAILURE_RATE_THRESHOLD))
                .isTrue();
        assertThat(configured.sets("wholesaler", BreakerConfig.SLIDING_WINDOW_SIZE))
                .isFalse();
        assertThat(configured.sets("inventory", BreakerConfig.FAILURE_RATE_THRESHOLD))
                .isTrue();
        assertThat(configured.sets("inventory", BreakerConfig.PROBE_LEASE)).isFalse();
    }

    @Test
    void faultSettingsAreConfiguredByTheBreakersFaultsSectionOnly() {
        BreakerProperties properties = new BreakerProperties();
        BreakerProperties.Faults faults = new BreakerProperties.Faults();
        faults.setFailureRate(50f);
        properties.getFaults().put("wholesaler", faults);

        ConfiguredSettings configured = BreakerSettingsMapping.configuredSettings(properties);

        assertThat(configured.sets("wholesaler", BreakerConfig.FAULT_FAILURE_RATE))
                .isTrue();
        assertThat(configured.sets("wholesaler", BreakerConfig.FAULT_LATENCY)).isFalse();
        assertThat(configured.sets("inventory", BreakerConfig.FAULT_FAILURE_RATE))
                .isFalse();
        assertThat(BreakerSettingsMapping.of(properties.getDefaults()).sets(BreakerConfig.FAULT_FAILURE_RATE))
                .isFalse();
    }

    /** A value of the setting's bound type that no other setting of this test gets. */
    private static Object distinctValue(Setting<?> setting, int n) {
        if (setting.type() == SlidingWindowType.class) {
            return SlidingWindowType.TIME_BASED;
        }
        if (setting.type() == Integer.class) {
            return 1000 + n;
        }
        if (setting.type() == Float.class) {
            return n + 0.5f;
        }
        if (setting.type() == Duration.class) {
            return Duration.ofMillis(1000 + n);
        }
        if (setting.type() == Class.class) {
            return "com.example.Failure" + n;
        }
        return List.of("com.example.Failure" + n);
    }
}
