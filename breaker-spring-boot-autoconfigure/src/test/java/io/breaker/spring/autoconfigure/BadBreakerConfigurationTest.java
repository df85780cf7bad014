package io.breaker.spring.autoconfigure;

import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Each kind of bad configuration stops start-up with a description and an action naming the property. */
@Tag(BootLine.TAG)
class BadBreakerConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

    @Test
    void thresholdAbove100() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.failure-rate-threshold=150");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.failure-rate-threshold'")
                .contains("'150'");
        assertThat(analysis.getAction())
                .contains("breakers.instances.wholesaler.failure-rate-threshold")
                .contains("a number in (0, 100]");
    }

    @Test
    void thresholdInTheDefaultsNamesTheDefaultsProperty() {
        FailureAnalysis analysis = failureFor("breakers.defaults.slow-call-rate-threshold=0");
        assertThat(analysis.getDescription())
                .contains("'breakers.defaults.slow-call-rate-threshold'")
                .contains("'0'");
        assertThat(analysis.getAction()).contains("a number in (0, 100]");
    }

    @Test
    void zeroDuration() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.wait-duration-in-open-state=0s");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.wait-duration-in-open-state'")
                .contains("'0ms'");
        assertThat(analysis.getAction()).contains("a positive duration of at most 106751d");
    }

    @Test
    void negativeDuration() {
        FailureAnalysis analysis = failureFor("breakers.defaults.slow-call-duration-threshold=-500ms");
        assertThat(analysis.getDescription())
                .contains("'breakers.defaults.slow-call-duration-threshold'")
                .contains("'-500ms'");
        assertThat(analysis.getAction()).contains("a positive duration");
    }

    @Test
    void classThatDoesNotExist() {
        FailureAnalysis analysis = failureFor(
                "breakers.instances.wholesaler.record-exceptions=java.io.IOException,com.example.NoSuchException");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.record-exceptions[1]'")
                .contains("'com.example.NoSuchException'")
                .contains("no such class");
        assertThat(analysis.getAction()).contains("extend java.lang.Throwable");
    }

    @Test
    void classThatIsNotAThrowable() {
        FailureAnalysis analysis = failureFor("breakers.defaults.ignore-exceptions=java.lang.String");
        assertThat(analysis.getDescription())
                .contains("'breakers.defaults.ignore-exceptions[0]'")
                .contains("'java.lang.String'")
                .contains("not a Throwable");
        assertThat(analysis.getAction()).contains("extend java.lang.Throwable");
    }

    @Test
    void minimumNumberOfCallsLargerThanACountWindow() {
        FailureAnalysis analysis = failureFor(
                "breakers.instances.wholesaler.sliding-window-size=20",
                "breakers.instances.wholesaler.minimum-number-of-calls=50");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.minimum-number-of-calls'")
                .contains("'50'");
        assertThat(analysis.getAction()).contains("at most sliding-window-size (20) for a count-based window");
    }

    @Test
    void aCountWindowSmallerThanTheInheritedMinimumNamesTheWindowSize() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.sliding-window-size=5");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.sliding-window-size'")
                .contains("'5'");
        assertThat(analysis.getAction()).contains("at least minimum-number-of-calls (10)");
    }

    @Test
    void aMaxWaitInOpenStateShorterThanTheWait() {
        FailureAnalysis analysis = failureFor(
                "breakers.instances.wholesaler.wait-duration-in-open-state=2m",
                "breakers.instances.wholesaler.max-wait-duration-in-open-state=1m");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.max-wait-duration-in-open-state'")
                .contains("'1m'");
        assertThat(analysis.getAction()).contains("at least wait-duration-in-open-state (PT2M), or none");
    }

    @Test
    void aWaitMultiplierBelowOne() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.wait-multiplier=0.5");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.wait-multiplier'")
                .contains("'0.5'");
        assertThat(analysis.getAction()).contains("a number in [1, 100]");
    }

    @Test
    void aWaitJitterAboveOne() {
        FailureAnalysis analysis = failureFor("breakers.defaults.wait-jitter=1.5");
        assertThat(analysis.getDescription())
                .contains("'breakers.defaults.wait-jitter'")
                .contains("'1.5'");
        assertThat(analysis.getAction()).contains("a number in [0, 1]");
    }

    @Test
    void windowSizeOutOfRangeForItsType() {
        FailureAnalysis analysis = failureFor(
                "breakers.instances.wholesaler.sliding-window-type=TIME_BASED",
                "breakers.instances.wholesaler.sliding-window-size=7200");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.sliding-window-size'")
                .contains("'7200'");
        assertThat(analysis.getAction()).contains("in [1, 3600] (seconds) for a time-based window");
    }

    @Test
    void unknownWindowType() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.sliding-window-type=COUNTED");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.sliding-window-type'")
                .contains("'COUNTED'")
                .contains("not one of the allowed values");
        assertThat(analysis.getAction()).contains("one of count-based, time-based");
    }

    @Test
    void valueThatIsNotADuration() {
        FailureAnalysis analysis = failureFor("breakers.defaults.probe-lease=soon");
        assertThat(analysis.getDescription())
                .contains("'breakers.defaults.probe-lease'")
                .contains("'soon'");
        assertThat(analysis.getAction()).contains("such as 800ms or 30s");
    }

    @Test
    void misspeltSettingOfAnInstance() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.failure-rate-treshold=30");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.failure-rate-treshold'")
                .contains("'30'")
                .contains("not read by any breaker module");
        assertThat(analysis.getAction())
                .contains("'breakers.instances.wholesaler.failure-rate-threshold'")
                .contains("check the spelling");
    }

    @Test
    void misspeltSettingInTheDefaults() {
        FailureAnalysis analysis = failureFor("breakers.defaults.wait-duration=10s");
        assertThat(analysis.getDescription()).contains("'breakers.defaults.wait-duration'");
        assertThat(analysis.getAction()).contains("wait-duration-in-open-state");
    }

    @Test
    void keysOfOtherModulesAreUnknownUntilThatModuleIsOnTheClassPath() {
        runner.withPropertyValues(
                        "breakers.health.down-when-open=*",
                        "breakers.instances.wholesaler.record-exceptions[0]=java.io.IOException")
                .run(context -> assertThat(context).hasNotFailed());
        // The Boot 4 starter's suite has breaker-redis on its class path (for its optional store health).
        if (ClassUtils.isPresent("io.breaker.redis.RedisStateStore", getClass().getClassLoader())) {
            runner.withPropertyValues("breakers.store.type=memory")
                    .run(context -> assertThat(context).hasNotFailed());
        } else {
            assertThat(failureFor("breakers.store.type=redis").getDescription()).contains("'breakers.store.type'");
        }
    }

    @Test
    void aListWithAGapGivesSpringsReasonNotAConversionFailure() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.record-exceptions[5]=java.io.IOException");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.record-exceptions[5]'", "'java.io.IOException'")
                .contains("left unbound")
                .doesNotContain("converted to List");
        assertThat(analysis.getAction()).contains("[0]").doesNotContain("a valid List");
    }

    @Test
    void aValueWhereASectionOfSettingsBelongsSaysSoWithoutInternalTypes() {
        for (String property : new String[] {"breakers.defaults", "breakers.instances.wholesaler"}) {
            FailureAnalysis analysis = failureFor(property + "=fast");
            assertThat(analysis.getDescription())
                    .as(property)
                    .contains("'" + property + "'", "'fast'")
                    .contains("a section of keys");
            assertThat(analysis.getAction())
                    .as(property)
                    .contains(property + ".failure-rate-threshold")
                    .doesNotContain("a valid Settings");
        }
    }

    @Test
    void ignoresFailuresThatAreNotAboutBreakers() {
        assertThat(new BreakerFailureAnalyzer().analyze(new IllegalStateException("something else")))
                .isNull();
    }

    private FailureAnalysis failureFor(String... properties) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner.withPropertyValues(properties)
                .withInitializer(context -> environment.set(context.getEnvironment()))
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer(environment.get()).analyze(context.getStartupFailure()));
                });
        assertThat(analysis.get()).as("a breaker-specific analysis").isNotNull();
        return analysis.get();
    }
}
