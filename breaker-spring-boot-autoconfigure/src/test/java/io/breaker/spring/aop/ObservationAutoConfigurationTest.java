package io.breaker.spring.aop;

import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerObservationAutoConfiguration;
import io.breaker.spring.observation.BreakerCallContext;
import io.breaker.spring.observation.BreakerObservationConvention;
import io.breaker.spring.observation.BreakerObservationMeterFilter;
import io.breaker.spring.observation.BreakerObservations;
import io.breaker.spring.observation.DefaultBreakerObservationConvention;
import io.breaker.spring.test.BootLine;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/** One test per condition of the observation auto-configuration, with the aspect it feeds. */
@Tag(BootLine.TAG)
class ObservationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(BreakerAutoConfiguration.class, BreakerObservationAutoConfiguration.class))
            .withBean(Shop.class);

    static class Shop {

        @CircuitProtected(name = "shop")
        public String price() {
            return "12.50";
        }
    }

    @Test
    void withARecordingRegistryEachCallIsObserved() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        runner.withBean(ObservationRegistry.class, () -> observations).run(context -> {
            assertThat(context.getBean(Shop.class).price()).isEqualTo("12.50");

            assertThat(observations)
                    .hasSingleObservationThat()
                    .hasNameEqualTo("breaker.call")
                    .hasLowCardinalityKeyValue("breaker.outcome", "success");
            assertThat(context).hasSingleBean(BreakerObservationMeterFilter.class);
            assertThat(observedCall(context.getBean(ProtectedMethods.class))).isInstanceOf(ObservedCall.class);
        });
    }

    @Test
    void withTheNoOpRegistryNoCallIsObservedAndNoBreakerListens() {
        runner.withBean(ObservationRegistry.class, () -> ObservationRegistry.NOOP)
                .run(context -> {
                    assertThat(context.getBean(Shop.class).price()).isEqualTo("12.50");

                    assertThat(context.getBean(BreakerObservations.class).ifRecording())
                            .isNull();
                    assertThat(observedCall(context.getBean(ProtectedMethods.class)))
                            .isNotInstanceOf(ObservedCall.class);
                });
    }

    @Test
    void withoutARegistryThereAreNoObservations() {
        runner.run(context -> {
            assertThat(context.getBean(Shop.class).price()).isEqualTo("12.50");

            assertThat(context).doesNotHaveBean(BreakerObservations.class);
            assertThat(observedCall(context.getBean(ProtectedMethods.class))).isNotInstanceOf(ObservedCall.class);
        });
    }

    @Test
    void aConventionBeanNamesTheCalls() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        BreakerObservationConvention renamed = new DefaultBreakerObservationConvention() {
            @Override
            public String getName() {
                return "bookshop.dependency";
            }

            @Override
            public String getContextualName(BreakerCallContext context) {
                return "dependency " + context.getBreakerName();
            }
        };
        runner.withBean(ObservationRegistry.class, () -> observations)
                .withBean(BreakerObservationConvention.class, () -> renamed)
                .run(context -> {
                    context.getBean(Shop.class).price();

                    assertThat(observations)
                            .hasSingleObservationThat()
                            .hasNameEqualTo("bookshop.dependency")
                            .hasContextualNameEqualTo("dependency shop")
                            .hasLowCardinalityKeyValue("circuitbreaker.name", "shop");
                });
    }

    private static ProtectedCall observedCall(ProtectedMethods methods) throws NoSuchMethodException {
        return methods.callFor(Shop.class, Shop.class.getMethod("price"));
    }
}
