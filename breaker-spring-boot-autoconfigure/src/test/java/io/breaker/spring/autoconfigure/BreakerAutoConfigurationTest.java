package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.internal.Integration;
import io.breaker.spring.aop.CircuitProtectedAdvisor;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

@Tag(BootLine.TAG)
class BreakerAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

    @Test
    void createsOneRegistryWithEveryConfiguredInstanceFromStartUp() {
        runner.withPropertyValues(
                        "breakers.instances.wholesaler.failure-rate-threshold=25",
                        "breakers.instances.payments.minimum-number-of-calls=5")
                .run(context -> {
                    assertThat(context).hasSingleBean(BreakerRegistry.class);
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.all())
                            .extracting(CircuitBreaker::getName)
                            .containsExactly("payments", "wholesaler");
                    assertThat(registry.configuredNames()).containsExactlyInAnyOrder("payments", "wholesaler");
                });
    }

    @Test
    void bindsEverySettingOfAnInstance() {
        runner.withPropertyValues(
                        "breakers.instances.wholesaler.sliding-window-type=TIME_BASED",
                        "breakers.instances.wholesaler.sliding-window-size=60",
                        "breakers.instances.wholesaler.minimum-number-of-calls=200",
                        "breakers.instances.wholesaler.failure-rate-threshold=25",
                        "breakers.instances.wholesaler.slow-call-rate-threshold=80",
                        "breakers.instances.wholesaler.slow-call-duration-threshold=800ms",
                        "breakers.instances.wholesaler.wait-duration-in-open-state=45s",
                        "breakers.instances.wholesaler.permitted-calls-in-half-open-state=3",
                        "breakers.instances.wholesaler.probe-lease=5s",
                        "breakers.instances.wholesaler.record-exceptions=java.io.IOException,java.util.concurrent.TimeoutException",
                        "breakers.instances.wholesaler.ignore-exceptions=java.lang.IllegalArgumentException")
                .run(context -> {
                    BreakerConfig config = context.getBean(BreakerRegistry.class)
                            .find("wholesaler")
                            .orElseThrow()
                            .getConfig();
                    assertThat(config.getSlidingWindowType()).isEqualTo(SlidingWindowType.TIME_BASED);
                    assertThat(config.getSlidingWindowSize()).isEqualTo(60);
                    assertThat(config.getMinimumNumberOfCalls()).isEqualTo(200);
                    assertThat(config.getFailureRateThreshold()).isEqualTo(25f);
                    assertThat(config.getSlowCallRateThreshold()).isEqualTo(80f);
                    assertThat(config.getSlowCallDurationThreshold()).isEqualTo(Duration.ofMillis(800));
                    assertThat(config.getWaitDurationInOpenState()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(config.getPermittedCallsInHalfOpenState()).isEqualTo(3);
                    assertThat(config.getProbeLease()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(config.getRecordExceptions()).containsExactly(IOException.class, TimeoutException.class);
                    assertThat(config.getIgnoreExceptions()).containsExactly(IllegalArgumentException.class);
                });
    }

    @Test
    void instanceInheritsEveryDefaultItDoesNotSet() {
        runner.withPropertyValues(
                        "breakers.defaults.sliding-window-size=20",
                        "breakers.defaults.minimum-number-of-calls=4",
                        "breakers.defaults.failure-rate-threshold=40",
                        "breakers.defaults.slow-call-duration-threshold=2s",
                        "breakers.defaults.ignore-exceptions=java.lang.IllegalArgumentException",
                        "breakers.instances.wholesaler.wait-duration-in-open-state=10s",
                        "breakers.instances.wholesaler.failure-rate-threshold=60")
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    BreakerConfig config =
                            registry.find("wholesaler").orElseThrow().getConfig();
                    assertThat(config.getWaitDurationInOpenState()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(config.getFailureRateThreshold()).isEqualTo(60f);
                    assertThat(config.getSlidingWindowSize()).isEqualTo(20);
                    assertThat(config.getMinimumNumberOfCalls()).isEqualTo(4);
                    assertThat(config.getSlowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(config.getIgnoreExceptions()).containsExactly(IllegalArgumentException.class);
                    assertThat(config.getProbeLease()).isEqualTo(Duration.ofSeconds(60));
                    assertThat(registry.getDefaultConfig().getFailureRateThreshold())
                            .isEqualTo(40f);
                    assertThat(registry.getDefaultConfig().getWaitDurationInOpenState())
                            .isEqualTo(Duration.ofSeconds(30));
                });
    }

    @Test
    void defaultsEqualTheEngineDefaultsWhenNothingIsConfigured() {
        runner.run(context -> {
            BreakerConfig config = context.getBean(BreakerRegistry.class).getDefaultConfig();
            BreakerConfig engine = BreakerConfig.ofDefaults();
            assertThat(config.toString()).isEqualTo(engine.toString());
        });
    }

    @Test
    void backsOffWhenTheApplicationDefinesItsOwnRegistry() {
        BreakerRegistry own = BreakerRegistry.ofDefaults();
        runner.withBean(BreakerRegistry.class, () -> own)
                .withPropertyValues("breakers.instances.wholesaler.failure-rate-threshold=25")
                .run(context -> {
                    assertThat(context).hasSingleBean(BreakerRegistry.class);
                    assertThat(context.getBean(BreakerRegistry.class)).isSameAs(own);
                    assertThat(own.find("wholesaler")).isEmpty();
                });
    }

    @Test
    void turnsEverythingOffWhenDisabled() {
        runner.withPropertyValues("breakers.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(BreakerRegistry.class);
            assertThat(context).doesNotHaveBean(CircuitProtectedAdvisor.class);
            assertThat(context).doesNotHaveBean(BreakerProperties.class);
        });
    }

    @Test
    void isOnWhenEnabledIsMissing() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(BreakerRegistry.class);
            assertThat(context).hasSingleBean(CircuitProtectedAdvisor.class);
        });
    }

    @Test
    void aspectOrderDefaultsToLowestPrecedenceSoThatRetryWrapsTheBreaker() {
        runner.run(context -> assertThat(
                        context.getBean(CircuitProtectedAdvisor.class).getOrder())
                .isEqualTo(Ordered.LOWEST_PRECEDENCE));
    }

    @Test
    void aspectOrderComesFromTheProperty() {
        runner.withPropertyValues("breakers.aspect-order=5")
                .run(context -> assertThat(
                                context.getBean(CircuitProtectedAdvisor.class).getOrder())
                        .isEqualTo(5));
    }

    @Test
    void customizersRunForAllOrForTheirNameOnlyInOrder() {
        runner.withPropertyValues(
                        "breakers.instances.wholesaler.failure-rate-threshold=25",
                        "breakers.instances.payments.failure-rate-threshold=25")
                .withBean(
                        "all",
                        BreakerConfigCustomizer.class,
                        () -> builder -> builder.waitDurationInOpenState(Duration.ofSeconds(7)))
                .withBean(
                        "wholesalerOnly",
                        BreakerConfigCustomizer.class,
                        () -> BreakerConfigCustomizer.of("wholesaler", builder -> builder.failureRateThreshold(90)))
                .withBean("second", SecondCustomizer.class, SecondCustomizer::new)
                .withBean("first", FirstCustomizer.class, FirstCustomizer::new)
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.find("wholesaler")
                                    .orElseThrow()
                                    .getConfig()
                                    .getFailureRateThreshold())
                            .isEqualTo(90f);
                    assertThat(registry.find("payments")
                                    .orElseThrow()
                                    .getConfig()
                                    .getFailureRateThreshold())
                            .isEqualTo(25f);
                    assertThat(registry.getDefaultConfig().getWaitDurationInOpenState())
                            .isEqualTo(Duration.ofSeconds(7));
                    assertThat(registry.find("payments")
                                    .orElseThrow()
                                    .getConfig()
                                    .getWaitDurationInOpenState())
                            .isEqualTo(Duration.ofSeconds(7));
                    assertThat(registry.find("wholesaler")
                                    .orElseThrow()
                                    .getConfig()
                                    .getPermittedCallsInHalfOpenState())
                            .as("the customizer with the higher order runs last")
                            .isEqualTo(4);
                });
    }

    @Test
    void customizerForAnUnconfiguredNameCreatesThatBreakerAtStartUp() {
        runner.withBean(
                        BreakerConfigCustomizer.class,
                        () -> BreakerConfigCustomizer.of("inventory", builder -> builder.minimumNumberOfCalls(3)))
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.find("inventory")).isPresent();
                    assertThat(registry.find("inventory")
                                    .orElseThrow()
                                    .getConfig()
                                    .getMinimumNumberOfCalls())
                            .isEqualTo(3);
                });
    }

    @Test
    void failurePredicateBeanDecidesWhichExceptionsCount() {
        runner.withPropertyValues("breakers.instances.wholesaler.failure-rate-threshold=25")
                .withBean(BreakerFailurePredicate.class, () -> error -> error instanceof UncheckedIOException)
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    for (BreakerConfig config : List.of(
                            registry.getDefaultConfig(),
                            registry.find("wholesaler").orElseThrow().getConfig())) {
                        assertThat(config.isFailure(new UncheckedIOException(new IOException("down"))))
                                .isTrue();
                        assertThat(config.isFailure(new IllegalStateException("bug")))
                                .isFalse();
                    }
                });
    }

    @Test
    void datesTransitionsWithTheApplicationsClock() {
        Instant now = Instant.parse("2031-05-04T10:00:00Z");
        Clock wallClock = Clock.fixed(now, ZoneOffset.UTC);
        runner.withBean(Clock.class, () -> wallClock).run(context -> {
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            CircuitBreaker breaker = registry.breaker("wholesaler");
            breaker.forceOpen();
            assertThat(registry.getWallClock()).isSameAs(wallClock);
            assertThat(breaker.getStateSince()).isEqualTo(now);
        });
    }

    @Test
    void usesTheApplicationsNanoClock() {
        NanoClock clock = () -> 42L;
        runner.withPropertyValues("breakers.instances.wholesaler.failure-rate-threshold=25")
                .withBean(NanoClock.class, () -> clock)
                .run(context -> assertThat(Integration.clock(context.getBean(BreakerRegistry.class)
                                .find("wholesaler")
                                .orElseThrow()))
                        .isSameAs(clock));
    }

    @Order(1)
    static class FirstCustomizer implements BreakerConfigCustomizer {

        @Override
        public void customize(BreakerConfig.Builder builder) {
            builder.permittedCallsInHalfOpenState(2);
        }
    }

    @Order(2)
    static class SecondCustomizer implements BreakerConfigCustomizer {

        @Override
        public void customize(BreakerConfig.Builder builder) {
            builder.permittedCallsInHalfOpenState(4);
        }
    }
}
