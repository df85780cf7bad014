package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code none}, which the allowed values of a setting that can be off offer, works in a property file
 * as it does at runtime: under {@code breakers.defaults} and under an instance, in YAML, in a
 * properties file and in an environment variable. An instance's {@code none} turns the setting off for
 * that breaker although the defaults set it; an instance that leaves it unset still inherits the
 * default. A value that is neither a duration nor {@code none} still stops start-up.
 */
@Tag(BootLine.TAG)
class NoneInPropertyFilesTest {

    /** Timed calls run on an executor of the test's, so that a call timeout also starts on Java 17. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
            .withBean("timedCalls", Executor.class, () -> Runnable::run)
            .withPropertyValues("breakers.defaults.call-timeout-executor=timedCalls");

    @Test
    void noneUnderAnInstanceTurnsTheSettingOffThoughTheDefaultsSetIt() {
        runner.withPropertyValues(
                        "breakers.defaults.slow-call-duration-threshold=2s",
                        "breakers.defaults.max-wait-duration-in-open-state=5m",
                        "breakers.defaults.call-timeout=3s",
                        "breakers.instances.dep.slow-call-duration-threshold=none",
                        "breakers.instances.dep.max-wait-duration-in-open-state=NONE",
                        "breakers.instances.dep.call-timeout=none",
                        "breakers.instances.other.failure-rate-threshold=30")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    BreakerConfig dep = registry.configFor("dep");
                    assertThat(dep.getSlowCallDurationThreshold()).isNull();
                    assertThat(dep.getMaxWaitDurationInOpenState()).isNull();
                    assertThat(dep.getCallTimeout()).isNull();
                    // Unset still inherits the default.
                    BreakerConfig other = registry.configFor("other");
                    assertThat(other.getSlowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(other.getMaxWaitDurationInOpenState()).isEqualTo(Duration.ofMinutes(5));
                    assertThat(other.getCallTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(other.getFailureRateThreshold()).isEqualTo(30f);
                });
    }

    @Test
    void noneUnderTheDefaultsTurnsTheSettingOffForEveryBreakerThatDoesNotSetIt() {
        runner.withPropertyValues(
                        "breakers.defaults.slow-call-duration-threshold=none",
                        "breakers.defaults.max-wait-duration-in-open-state=none",
                        "breakers.defaults.call-timeout=none",
                        "breakers.instances.dep.slow-call-duration-threshold=800ms",
                        "breakers.instances.other.failure-rate-threshold=30")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.configFor("dep").getSlowCallDurationThreshold())
                            .isEqualTo(Duration.ofMillis(800));
                    for (BreakerConfig config : List.of(registry.configFor("other"), registry.configFor("unnamed"))) {
                        assertThat(config.getSlowCallDurationThreshold()).isNull();
                        assertThat(config.getMaxWaitDurationInOpenState()).isNull();
                        assertThat(config.getCallTimeout()).isNull();
                    }
                });
    }

    @Test
    void noneInYamlOverridesTheDefaultsDuration() {
        runner.withInitializer(
                        context -> context.getEnvironment().getPropertySources().addFirst(yaml("""
                                breakers:
                                  defaults:
                                    slow-call-duration-threshold: 2s
                                    call-timeout: 3s
                                  instances:
                                    dep:
                                      slow-call-duration-threshold: none
                                      call-timeout: none
                                    other:
                                      failure-rate-threshold: 30
                                  faults:
                                    dep:
                                      failure-rate: 10
                                      latency: none
                                """)))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    BreakerConfig dep = registry.configFor("dep");
                    assertThat(dep.getSlowCallDurationThreshold()).isNull();
                    assertThat(dep.getCallTimeout()).isNull();
                    assertThat(dep.getFaultLatency()).isNull();
                    assertThat(dep.getFaultFailureRate()).isEqualTo(10f);
                    assertThat(registry.configFor("other").getSlowCallDurationThreshold())
                            .isEqualTo(Duration.ofSeconds(2));
                    assertThat(registry.configFor("other").getCallTimeout()).isEqualTo(Duration.ofSeconds(3));
                });
    }

    @Test
    void noneFromAnEnvironmentVariableOverridesTheDefaultsDuration() {
        runner.withPropertyValues("breakers.defaults.slow-call-duration-threshold=2s")
                .withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(
                                "systemEnvironment",
                                Map.of("BREAKERS_INSTANCES_DEP_SLOWCALLDURATIONTHRESHOLD", "none"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.configFor("dep").getSlowCallDurationThreshold())
                            .isNull();
                    assertThat(registry.configFor("unnamed").getSlowCallDurationThreshold())
                            .isEqualTo(Duration.ofSeconds(2));
                });
    }

    @Test
    void withBreakersOffNoneIsCheckedAndAcceptedToo() {
        ApplicationContextRunner off = runner.withConfiguration(
                        AutoConfigurations.of(BreakersOffAutoConfiguration.class))
                .withPropertyValues("breakers.enabled=false", "breakers.defaults.slow-call-duration-threshold=2s");

        off.withPropertyValues(
                        "breakers.instances.dep.slow-call-duration-threshold=none", "breakers.faults.dep.latency=none")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BreakerRegistry.class));
        off.withPropertyValues("breakers.instances.dep.slow-call-duration-threshold=nonee")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("breakers.instances.dep.slow-call-duration-threshold"));
    }

    @Test
    void aValueThatIsNeitherADurationNorNoneStillStopsStartUpNamingThePropertyAndTheAllowedValues() {
        for (String property : List.of(
                "breakers.instances.dep.slow-call-duration-threshold",
                "breakers.defaults.max-wait-duration-in-open-state",
                "breakers.instances.dep.call-timeout",
                "breakers.faults.dep.latency")) {
            FailureAnalysis analysis = failureFor(property + "=nonee");
            assertThat(analysis.getDescription())
                    .as(property)
                    .contains("'" + property + "'", "'nonee'", "not a duration");
            assertThat(analysis.getAction())
                    .as(property)
                    .contains("'" + property + "'", "a positive duration of at most 106751d (about 292 years)")
                    .contains("or none", "such as 800ms or 30s");
        }
    }

    @Test
    void aValueThatIsNeitherFromAnEnvironmentVariableNamesTheVariable() {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner.withInitializer(context -> {
                    context.getEnvironment()
                            .getPropertySources()
                            .addFirst(new SystemEnvironmentPropertySource(
                                    "systemEnvironment",
                                    Map.of("BREAKERS_INSTANCES_DEP_SLOWCALLDURATIONTHRESHOLD", "off")));
                    environment.set(context.getEnvironment());
                })
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer(environment.get()).analyze(context.getStartupFailure()));
                });

        assertThat(analysis.get()).isNotNull();
        assertThat(analysis.get().getDescription())
                .contains(
                        "'breakers.instances.dep.slow-call-duration-threshold'",
                        "'off'",
                        "from the environment variable BREAKERS_INSTANCES_DEP_SLOWCALLDURATIONTHRESHOLD");
        assertThat(analysis.get().getAction()).contains("or none to turn slow-call detection off");
    }

    private FailureAnalysis failureFor(String property) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner.withPropertyValues(property)
                .withInitializer(context -> environment.set(context.getEnvironment()))
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer(environment.get()).analyze(context.getStartupFailure()));
                });
        assertThat(analysis.get())
                .as("a breaker-specific analysis of %s", property)
                .isNotNull();
        return analysis.get();
    }

    private static PropertySource<?> yaml(String text) {
        try {
            return new YamlPropertySourceLoader()
                    .load("application.yml", new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8)))
                    .get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
