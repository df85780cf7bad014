package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.Setting;
import io.breaker.SlidingWindowType;
import io.breaker.spring.config.ConfiguredSettings;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import io.breaker.spring.config.MappedSettings;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void noneSetsASettingThatCanBeOffToOffAndABlankSetsNothing() {
        BreakerProperties.Settings settings = new BreakerProperties.Settings();
        settings.setSlowCallDurationThreshold("none");
        settings.setCallTimeout(" NONE ");
        settings.setMaxWaitDurationInOpenState("");

        MappedSettings mapped = BreakerSettingsMapping.of(settings);

        for (Setting<?> setting : List.of(BreakerConfig.SLOW_CALL_DURATION_THRESHOLD, BreakerConfig.CALL_TIMEOUT)) {
            assertThat(mapped.sets(setting)).as(setting.name()).isTrue();
            assertThat(mapped.value(setting, "breakers.defaults." + setting.propertyName(), null))
                    .as(setting.name())
                    .isNull();
        }
        assertThat(settings.getSlowCallDurationThreshold()).isNull();
        assertThat(mapped.sets(BreakerConfig.MAX_WAIT_DURATION_IN_OPEN_STATE)).isFalse();
    }

    @Test
    void aDurationThatCanBeOffIsReadAsEveryDurationIs() {
        BreakerProperties.Settings settings = new BreakerProperties.Settings();
        settings.setSlowCallDurationThreshold("PT2S");
        settings.setCallTimeout(1500);
        settings.setMaxWaitDurationInOpenState(Duration.ofMinutes(3));

        MappedSettings mapped = BreakerSettingsMapping.of(settings);

        assertThat(mapped.value(BreakerConfig.SLOW_CALL_DURATION_THRESHOLD, "slow", null))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(mapped.value(BreakerConfig.CALL_TIMEOUT, "timeout", null)).isEqualTo(Duration.ofMillis(1500));
        assertThat(mapped.value(BreakerConfig.MAX_WAIT_DURATION_IN_OPEN_STATE, "max", null))
                .isEqualTo(Duration.ofMinutes(3));
        assertThat(settings.getCallTimeout()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void aValueThatIsNeitherADurationNorNoneIsReportedWithItsPropertyAndTheAllowedValues() {
        BreakerProperties.Settings settings = new BreakerProperties.Settings();
        settings.setSlowCallDurationThreshold("soon");

        assertThat(settings.getSlowCallDurationThreshold()).isNull();
        assertThatThrownBy(() -> BreakerSettingsMapping.of(settings)
                        .value(
                                BreakerConfig.SLOW_CALL_DURATION_THRESHOLD,
                                "breakers.instances.dep.slow-call-duration-threshold",
                                null))
                .isInstanceOf(InvalidBreakerPropertyException.class)
                .hasMessage("breakers.instances.dep.slow-call-duration-threshold must be a positive duration of at"
                        + " most 106751d (about 292 years), or none to turn slow-call detection off, such as 800ms or"
                        + " 30s, was soon (it is not a duration (or one too long to hold))");
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
