package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.aop.CircuitProtectedAdvisor;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Input that used to slip through: every key under breakers. is read by some module, and every value is checked. */
@Tag(BootLine.TAG)
@ExtendWith(OutputCaptureExtension.class)
class StrictPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

    @Test
    void aMisspeltDefaultsSectionStopsStartUpNamingTheNearestKey() {
        FailureAnalysis analysis = failureFor("breakers.default.failure-rate-threshold=30");
        assertThat(analysis.getDescription())
                .contains("'breakers.default.failure-rate-threshold'", "'30'", "not read by any breaker module");
        assertThat(analysis.getAction()).contains("'breakers.defaults.failure-rate-threshold'");
    }

    @Test
    void aMisspeltInstancesSectionKeepsTheBreakerNameInTheSuggestion() {
        FailureAnalysis analysis = failureFor("breakers.instance.dep.wait-duration-in-open-state=10s");
        assertThat(analysis.getAction()).contains("'breakers.instances.dep.wait-duration-in-open-state'");
    }

    @Test
    void keysAreCheckedAlsoWhenTheApplicationDefinesItsOwnRegistry() {
        assertThat(failure(runner.withBean(BreakerRegistry.class, BreakerRegistry::ofDefaults)
                                .withPropertyValues("breakers.default.failure-rate-threshold=30"))
                        .getAction())
                .contains("'breakers.defaults.failure-rate-threshold'");
    }

    @Test
    void aMisspeltEnabledDoesNotLeaveBreakersOnSilently() {
        assertThat(failureFor("breakers.enable=false").getAction()).contains("'breakers.enabled'");
    }

    @Test
    void aMisspeltHealthKeyStopsStartUp() {
        assertThat(failureFor("breakers.health.down-when-opn=dep").getAction())
                .contains("'breakers.health.down-when-open'");
    }

    @Test
    void aMisspeltSettingNamesTheSettingItWasMeantToBe() {
        assertThat(failureFor("breakers.instances.dep.record-exeptions[0]=java.io.IOException")
                        .getAction())
                .contains("'breakers.instances.dep.record-exceptions[0]'");
    }

    @Test
    void aBreakerNameWithADotIsToldToUseBrackets() {
        FailureAnalysis analysis = failureFor("breakers.instances.a.b.failure-rate-threshold=30");
        assertThat(analysis.getAction()).contains("'breakers.instances[a.b].failure-rate-threshold'", "brackets");
    }

    @Test
    void anEnvironmentVariableWithUnderscoresForDashesIsToldTheVariableThatWorks() {
        FailureAnalysis analysis = failureWithEnvironment(Map.of("BREAKERS_DEFAULTS_FAILURE_RATE_THRESHOLD", "30"));
        assertThat(analysis.getDescription()).contains("BREAKERS_DEFAULTS_FAILURE_RATE_THRESHOLD");
        assertThat(analysis.getAction())
                .contains("BREAKERS_DEFAULTS_FAILURERATETHRESHOLD", "'breakers.defaults.failure-rate-threshold'");
    }

    @Test
    void aValueFromAnEnvironmentVariableThatFailsARangeCheckNamesTheVariable() {
        FailureAnalysis analysis = failureWithEnvironment(Map.of("BREAKERS_INSTANCES_DEP_FAILURERATETHRESHOLD", "150"));
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.dep.failure-rate-threshold'", "'150'")
                .contains("from the environment variable BREAKERS_INSTANCES_DEP_FAILURERATETHRESHOLD");
        assertThat(analysis.getAction())
                .contains(
                        "a number in (0, 100]",
                        "in the environment variable BREAKERS_INSTANCES_DEP_FAILURERATETHRESHOLD");
    }

    @Test
    void anInheritedDefaultFromAnEnvironmentVariableNamesTheVariableOfTheDefaults() {
        FailureAnalysis analysis = failureWithEnvironment(Map.of("BREAKERS_DEFAULTS_PROBELEASE", "0"));
        assertThat(analysis.getDescription())
                .contains("'breakers.defaults.probe-lease'", "BREAKERS_DEFAULTS_PROBELEASE");
    }

    @Test
    void aRangeFailureFromAPropertyFileNamesNoVariable() {
        assertThat(failureFor("breakers.instances.dep.failure-rate-threshold=150")
                        .getDescription())
                .doesNotContain("environment variable");
    }

    @Test
    void theDeclaredKeysInTheRightFormStartUp() {
        runner.withPropertyValues(
                        "breakers.enabled=true",
                        "breakers.aspect-order=5",
                        "breakers.health.down-when-open=*",
                        "breakers.defaults.failure-rate-threshold=40",
                        "breakers.instances.dep.failureRateThreshold=30",
                        "breakers.instances.dep.record-exceptions[0]=java.io.IOException",
                        "breakers.instances[a.b].probe-lease=5s")
                .run(context -> assertThat(context).hasNotFailed());
        runner.withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(
                                "systemEnvironment", Map.of("BREAKERS_INSTANCES_DEP_FAILURERATETHRESHOLD", "30"))))
                .run(context -> assertThat(context.getBean(BreakerRegistry.class)
                                .configFor("dep")
                                .getFailureRateThreshold())
                        .isEqualTo(30f));
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "off", "no", "0", "OFF"})
    void everyValueThatBindsAsFalseTurnsBreakersOff(String value) {
        runner.withPropertyValues("breakers.enabled=" + value)
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(BreakerRegistry.class)
                        .doesNotHaveBean(CircuitProtectedAdvisor.class));
    }

    @Test
    void withBreakersOffEveryKeyAndValueIsStillCheckedAndOneInfoLineSaysSo(CapturedOutput output) {
        ApplicationContextRunner off = runner.withConfiguration(
                        AutoConfigurations.of(BreakersOffAutoConfiguration.class))
                .withPropertyValues("breakers.enabled=false");
        assertThat(failure(off.withPropertyValues("breakers.default.failure-rate-threshold=30"))
                        .getAction())
                .contains("'breakers.defaults.failure-rate-threshold'");
        assertThat(failure(off.withPropertyValues("breakers.instances.dep.failure-rate-threshold=150"))
                        .getDescription())
                .contains("'breakers.instances.dep.failure-rate-threshold'", "'150'");
        assertThat(failure(off.withPropertyValues("breakers.defaults.sliding-window-type=COUNTED"))
                        .getAction())
                .contains("one of count-based, time-based");
        assertThat(failure(off.withPropertyValues("breakers.console.enabled=maybe"))
                        .getAction())
                .contains("true or false");
        off.withPropertyValues("breakers.instances.dep.failure-rate-threshold=30", "breakers.health.down-when-open=dep")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BreakerRegistry.class));
        assertThat(output.getAll().lines().filter(line -> line.contains("Breakers are off")))
                .hasSize(1)
                .allMatch(line -> line.contains("INFO") && line.contains("breakers.enabled"));
    }

    @Test
    void aFeaturesValuesAreCheckedWhileTheFeatureIsOff() {
        // No endpoint and no health contributor in this context: their properties are checked all the same.
        assertThat(failureFor("breakers.console.enabled=maybe").getDescription())
                .contains("'breakers.console.enabled'", "'maybe'");
        FailureAnalysis analysis =
                failureFor("breakers.instances.dep.failure-rate-threshold=30", "breakers.health.down-when-open=nobody");
        assertThat(analysis.getDescription()).contains("'breakers.health.down-when-open'", "'nobody'");
        assertThat(analysis.getAction()).contains("'dep'");
    }

    @Test
    void anEnabledValueThatIsNoBooleanStopsStartUp() {
        FailureAnalysis analysis = failureFor("breakers.enabled=maybe");
        assertThat(analysis.getDescription()).contains("'breakers.enabled'", "'maybe'");
        assertThat(analysis.getAction()).contains("true or false");
    }

    @ParameterizedTest
    @ValueSource(strings = {"wait-duration-in-open-state", "probe-lease", "slow-call-duration-threshold"})
    void aDurationBeyondWhatTheBreakerCanHoldNamesThePropertyInsteadOfOverflowing(String setting) {
        FailureAnalysis analysis = failureFor("breakers.instances.dep." + setting + "=200000d");
        assertThat(analysis.getDescription()).contains("'breakers.instances.dep." + setting + "'", "'200000d'");
        assertThat(analysis.getAction()).contains("at most 106751d");
    }

    @Test
    void aNumberThatIsNoNumberGetsTheSettingsRange() {
        assertThat(failureFor("breakers.defaults.failure-rate-threshold=abc").getAction())
                .contains("(0, 100]");
    }

    @Test
    void aNumberTooLargeForItsTypeSaysSoWithTheRange() {
        FailureAnalysis analysis = failureFor("breakers.defaults.sliding-window-size=99999999999");
        assertThat(analysis.getDescription()).contains("beyond 2147483647");
        assertThat(analysis.getAction()).contains("[1, 1000000]");
    }

    @Test
    void aWrongWindowTypeListsTheValuesAsWrittenInYaml() {
        assertThat(failureFor("breakers.defaults.sliding-window-type=COUNTED").getAction())
                .contains("one of count-based, time-based");
    }

    @Test
    void aWrongAspectOrderIsExplainedWithTheProperty() {
        FailureAnalysis analysis = failureFor("breakers.aspect-order=abc");
        assertThat(analysis.getDescription()).contains("'breakers.aspect-order'", "'abc'");
        assertThat(analysis.getAction()).contains("a whole number");
    }

    @Test
    void theAspectOrderIsBoundLikeEveryOtherProperty() {
        runner.withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(
                                "systemEnvironment", Map.of("BREAKERS_ASPECTORDER", "42"))))
                .run(context -> assertThat(
                                context.getBean(CircuitProtectedAdvisor.class).getOrder())
                        .isEqualTo(42));
    }

    @Test
    void theAdvisorsOrderDoesNotCreateThePropertiesBeanBeforeEveryPostProcessorCanSeeIt() {
        runner.withUserConfiguration(Recording.class)
                .withPropertyValues("breakers.aspect-order=7")
                .run(context -> {
                    assertThat(context.getBean(CircuitProtectedAdvisor.class).getOrder())
                            .isEqualTo(7);
                    assertThat(Recording.PROCESSED).anyMatch(name -> name.endsWith(BreakerProperties.class.getName()));
                });
    }

    private FailureAnalysis failureFor(String... properties) {
        return failure(runner.withPropertyValues(properties));
    }

    private FailureAnalysis failureWithEnvironment(Map<String, Object> variables) {
        return failure(runner.withInitializer(context -> context.getEnvironment()
                .getPropertySources()
                .addFirst(new SystemEnvironmentPropertySource("systemEnvironment", variables))));
    }

    private static FailureAnalysis failure(ApplicationContextRunner runner) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner.withInitializer(context -> environment.set(context.getEnvironment()))
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer(environment.get()).analyze(context.getStartupFailure()));
                });
        assertThat(analysis.get()).as("a breaker-specific analysis").isNotNull();
        return analysis.get();
    }

    /** A plain post-processor, registered last: it sees every bean created after the post-processors. */
    @Configuration(proxyBeanMethods = false)
    static class Recording {

        static final Set<String> PROCESSED = ConcurrentHashMap.newKeySet();

        @Bean
        static BeanPostProcessor recordingPostProcessor() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    PROCESSED.add(beanName);
                    return bean;
                }
            };
        }
    }
}
