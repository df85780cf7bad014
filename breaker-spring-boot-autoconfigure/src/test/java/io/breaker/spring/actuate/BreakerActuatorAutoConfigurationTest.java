package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.spring.autoconfigure.BreakerEndpointAutoConfiguration;
import io.breaker.spring.metrics.BreakerMeterBinder;
import io.breaker.spring.test.BootLine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per condition of the endpoint and health auto-configurations. */
@Tag(BootLine.TAG)
class BreakerActuatorAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(BreakerEndpointAutoConfiguration.class, BootLine.healthAutoConfiguration()));

    private final ApplicationContextRunner withRegistry =
            runner.withBean(BreakerRegistry.class, () -> BreakerRegistry.of(BreakerConfig.ofDefaults(), Map.of()));

    @Test
    void exposedEndpointAndHealthAppearWithARegistry() {
        withRegistry
                .withPropertyValues("management.endpoints.web.exposure.include=breakers")
                .run(context -> {
                    assertThat(context).hasSingleBean(BreakersEndpoint.class);
                    assertThat(context).hasSingleBean(BreakerTransitionHistory.class);
                    assertThat(context).hasSingleBean(BreakerEventStream.class);
                    assertThat(context).hasSingleBean(BreakerStreamLifecycle.class);
                    assertThat(context).hasBean("breakersHealthIndicator");
                });
    }

    @Test
    void theHistoryCountsCallsWithTheBreakersTimers() {
        withRegistry
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("management.endpoints.web.exposure.include=breakers")
                .run(context -> {
                    new BreakerMeterBinder(context.getBean(BreakerRegistry.class))
                            .bindTo(context.getBean(MeterRegistry.class));
                    context.getBean(BreakerRegistry.class).breaker("wholesaler").execute(() -> "ok");

                    assertThat(context).hasSingleBean(BreakerActivity.class).hasSingleBean(CallTotals.Source.class);
                    assertThat(firstSample(context).succeeded()).isEqualTo(1);
                });
    }

    @Test
    void withoutMicrometerTheHistoryKeepsNoCallTotals() {
        withRegistry
                .withClassLoader(new FilteredClassLoader("io.micrometer"))
                .withPropertyValues("management.endpoints.web.exposure.include=breakers")
                .run(context -> {
                    context.getBean(BreakerRegistry.class).breaker("wholesaler").execute(() -> "ok");

                    assertThat(context).hasSingleBean(BreakerActivity.class).doesNotHaveBean(CallTotals.Source.class);
                    assertThat(firstSample(context).succeeded()).isEqualTo(-1);
                });
    }

    private static ActivitySample firstSample(ApplicationContext context) {
        return context.getBean(BreakersEndpoint.class)
                .breaker("wholesaler")
                .activity()
                .samples()
                .get(0);
    }

    @Test
    void nothingAppearsWithoutARegistry() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=breakers")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(BreakersEndpoint.class);
                    assertThat(context).doesNotHaveBean(BreakersHealth.class);
                });
    }

    @Test
    void nothingAppearsWithoutActuator() {
        withRegistry
                .withClassLoader(
                        new FilteredClassLoader("org.springframework.boot.actuate", "org.springframework.boot.health"))
                .withPropertyValues("management.endpoints.web.exposure.include=breakers")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(BreakersEndpoint.class);
                    assertThat(context).doesNotHaveBean(BreakersHealth.class);
                });
    }

    @Test
    void theEndpointIsLeftOutWhenNotExposed() {
        withRegistry.run(context -> assertThat(context).doesNotHaveBean(BreakersEndpoint.class));
    }

    @Test
    void theEndpointIsLeftOutWhenDisabled() {
        withRegistry
                .withPropertyValues(
                        "management.endpoints.web.exposure.include=breakers",
                        "management.endpoint.breakers.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(BreakersEndpoint.class));
    }

    @Test
    void theHealthContributorCanBeSwitchedOff() {
        withRegistry
                .withPropertyValues("management.health.breakers.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("breakersHealthIndicator"));
    }

    @Test
    void downWhenOpenBindsFromProperties() {
        runner.withBean(
                        BreakerRegistry.class,
                        () -> BreakerRegistry.of(
                                BreakerConfig.ofDefaults(),
                                Map.of(
                                        "wholesaler",
                                        BreakerConfig.ofDefaults(),
                                        "payments",
                                        BreakerConfig.ofDefaults())))
                .withPropertyValues("breakers.health.down-when-open=wholesaler,payments")
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    Object indicator = context.getBean("breakersHealthIndicator");
                    registry.breaker("audit").forceOpen();
                    assertThat(BootLine.status(indicator)).isEqualTo("UP");
                    registry.breaker("payments").forceOpen();
                    assertThat(BootLine.status(indicator)).isEqualTo("DOWN");
                });
    }

    @Test
    void aUserHealthIndicatorNamedBreakersReplacesOurs() {
        Object own = BootLine.unknownHealthIndicator();
        withRegistry
                .withBean("breakersHealthIndicator", Object.class, () -> own)
                .run(context ->
                        assertThat(context.getBean("breakersHealthIndicator")).isSameAs(own));
    }
}
