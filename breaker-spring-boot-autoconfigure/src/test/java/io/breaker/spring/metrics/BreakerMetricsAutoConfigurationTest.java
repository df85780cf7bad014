package io.breaker.spring.metrics;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.spring.autoconfigure.BreakerMetricsAutoConfiguration;
import io.breaker.spring.test.BootLine;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per condition of the metrics auto-configuration, and its binding by Spring Boot. */
@Tag(BootLine.TAG)
class BreakerMetricsAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.metricsAutoConfigurations()))
            .withConfiguration(AutoConfigurations.of(BreakerMetricsAutoConfiguration.class));

    private final ApplicationContextRunner withRegistry =
            runner.withBean(BreakerRegistry.class, () -> BreakerRegistry.of(BreakerConfig.ofDefaults(), Map.of()));

    @Test
    void springBootBindsTheMetersOfEveryBreakerToItsMeterRegistry() {
        withRegistry.run(context -> {
            context.getBean(BreakerRegistry.class).breaker("wholesaler").execute(() -> "ok");
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("breaker.calls")
                            .tag("name", "wholesaler")
                            .tag("outcome", "success")
                            .timer()
                            .count())
                    .isEqualTo(1);
        });
    }

    @Test
    void noBinderWithoutARegistry() {
        runner.run(context -> assertThat(context).doesNotHaveBean(BreakerMeterBinder.class));
    }

    @Test
    void noBinderWithoutMicrometer() {
        withRegistry
                .withClassLoader(new FilteredClassLoader("io.micrometer"))
                .withConfiguration(AutoConfigurations.of(BreakerMetricsAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(BreakerMeterBinder.class));
    }

    @Test
    void aUserBinderReplacesOurs() {
        BreakerRegistry registry = BreakerRegistry.ofDefaults();
        BreakerMeterBinder own = new BreakerMeterBinder(registry);
        withRegistry
                .withBean(BreakerMeterBinder.class, () -> own)
                .run(context ->
                        assertThat(context.getBean(BreakerMeterBinder.class)).isSameAs(own));
    }
}
