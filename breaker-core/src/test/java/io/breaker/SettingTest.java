package io.breaker;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each setting is defined once, and the builder, the getters and the defaults all follow that definition. */
class SettingTest {

    /** Builder methods that are code rather than settings, or set several settings at once. */
    private static final Set<String> NOT_SETTINGS = Set.of(
            "build",
            "recordFailurePredicate",
            "retryAfterResolver",
            "jitterSource",
            "faultRandom",
            "faultSleeper",
            "slidingWindow");

    @Test
    void everyBuilderMethodSetsADefinedSetting() {
        Set<String> methods = Arrays.stream(BreakerConfig.Builder.class.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()))
                .map(Method::getName)
                .filter(name -> !NOT_SETTINGS.contains(name))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(methods)
                .as("builder methods without a Setting in BreakerConfig.settings()")
                .containsExactlyInAnyOrderElementsOf(names());
    }

    @Test
    void everyGetterReadsADefinedSetting() {
        Set<String> getters = Arrays.stream(BreakerConfig.class.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers()))
                .map(Method::getName)
                .filter(name -> name.startsWith("get")
                        && !name.equals("getRecordFailurePredicate")
                        && !name.equals("getRetryAfterResolver")
                        && !name.equals("getJitterSource")
                        && !name.equals("getFaultRandom")
                        && !name.equals("getFaultSleeper"))
                .map(name -> Character.toLowerCase(name.charAt(3)) + name.substring(4))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(getters).containsExactlyInAnyOrderElementsOf(names());
    }

    @Test
    void theDefaultsAreTheDefinedOnes() {
        for (Setting<?> setting : BreakerConfig.settings()) {
            assertThat((Object) setting.get(BreakerConfig.ofDefaults()))
                    .as(setting.name())
                    .isEqualTo(setting.defaultValue());
        }
    }

    @Test
    void everyDefinitionIsComplete() {
        for (Setting<?> setting : BreakerConfig.settings()) {
            assertThat(setting.description()).as(setting.name()).endsWith(".").doesNotContain("\n");
            assertThat(setting.allowed()).as(setting.name()).isNotBlank();
            assertThat(setting.propertyName()).as(setting.name()).matches("[a-z]+(-[a-z]+)*");
            if (setting.defaultValue() != null) {
                assertThat(setting.type()).as(setting.name()).isInstanceOf(Class.class);
                assertThat(setting.type().isInstance(setting.defaultValue()))
                        .as(setting.name())
                        .isTrue();
            }
        }
        assertThat(BreakerConfig.FAILURE_RATE_THRESHOLD.propertyName()).isEqualTo("failure-rate-threshold");
    }

    @Test
    void aRejectedValueIsATypedErrorCarryingTheSettingTheValueAndTheAllowedRange() {
        assertThatThrownBy(() -> BreakerConfig.builder().failureRateThreshold(150))
                .isInstanceOfSatisfying(InvalidSettingException.class, invalid -> {
                    assertThat(invalid.getSetting()).isSameAs(BreakerConfig.FAILURE_RATE_THRESHOLD);
                    assertThat(invalid.getValue()).isEqualTo(150f);
                    assertThat(invalid.getAllowed()).isEqualTo("a number in (0, 100]");
                });
        assertThatThrownBy(() -> BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.COUNT_BASED, 20)
                        .minimumNumberOfCalls(21)
                        .build())
                .isInstanceOfSatisfying(InvalidSettingException.class, invalid -> {
                    assertThat(invalid.getSetting()).isSameAs(BreakerConfig.MINIMUM_NUMBER_OF_CALLS);
                    assertThat(invalid.getAllowed())
                            .isEqualTo("at most slidingWindowSize (20) for a COUNT_BASED window");
                });
    }

    @Test
    void durationsBeyondWhatNanosecondsHoldAreRejectedWithTheSetting() {
        Duration tooLong = Duration.ofDays(200_000);
        assertThatThrownBy(() -> BreakerConfig.builder().waitDurationInOpenState(tooLong))
                .isInstanceOfSatisfying(
                        InvalidSettingException.class,
                        invalid -> assertThat(invalid.getSetting()).isSameAs(BreakerConfig.WAIT_DURATION_IN_OPEN_STATE))
                .hasMessageContaining("at most 106751d");
        assertThatThrownBy(() -> BreakerConfig.builder().probeLease(tooLong))
                .isInstanceOf(InvalidSettingException.class);
        assertThatThrownBy(() -> BreakerConfig.builder().slowCallDurationThreshold(tooLong))
                .isInstanceOf(InvalidSettingException.class);
        // The longest allowed one still works end to end: no overflow when the breaker turns it into nanoseconds.
        CircuitBreaker breaker = CircuitBreaker.of(
                "long",
                BreakerConfig.builder()
                        .waitDurationInOpenState(BreakerConfig.MAX_DURATION)
                        .probeLease(BreakerConfig.MAX_DURATION)
                        .build());
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void appliesAValueByItsDefinition() {
        BreakerConfig.Builder builder = BreakerConfig.builder();
        BreakerConfig.PERMITTED_CALLS_IN_HALF_OPEN_STATE.applyTo(builder, 3);
        BreakerConfig.RECORD_EXCEPTIONS.applyTo(builder, List.of(IllegalStateException.class));

        BreakerConfig config = builder.build();

        assertThat(config.getPermittedCallsInHalfOpenState()).isEqualTo(3);
        assertThat(config.getRecordExceptions()).containsExactly(IllegalStateException.class);
        assertThatThrownBy(() -> BreakerConfig.FAILURE_RATE_THRESHOLD.applyTo(BreakerConfig.builder(), null))
                .isInstanceOf(InvalidSettingException.class);
        assertThatThrownBy(() -> BreakerConfig.FAILURE_RATE_THRESHOLD.applyTo(BreakerConfig.builder(), "50"))
                .isInstanceOf(InvalidSettingException.class);
    }

    private static List<String> names() {
        return BreakerConfig.settings().stream().map(Setting::name).toList();
    }
}
