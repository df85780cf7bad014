package io.breaker.spring.cloud;

import io.breaker.BreakerRegistry;
import io.breaker.CallTimeoutException;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.ConfigBuilder;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per condition of {@link BreakerSpringCloudAutoConfiguration}. */
@Tag("boot-line")
class BreakerSpringCloudAutoConfigurationTest {

    private static final FilteredClassLoader WITHOUT_RESILIENCE4J =
            new FilteredClassLoader("org.springframework.cloud.circuitbreaker.resilience4j");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(BreakerAutoConfiguration.class, BreakerSpringCloudAutoConfiguration.class))
            .withClassLoader(WITHOUT_RESILIENCE4J);

    @Test
    void bothFactoriesOnTheRegistryWhenSpringCloudCommonsAndReactorArePresent() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(BreakerCircuitBreakerFactory.class);
            assertThat(context).hasSingleBean(ReactiveBreakerCircuitBreakerFactory.class);
            context.getBean(CircuitBreakerFactory.class).create("wholesaler").run(() -> "ok");
            assertThat(context.getBean(BreakerRegistry.class).find("wholesaler"))
                    .isPresent();
        });
    }

    @Test
    void theFactoryRunsCallsWithTheBreakersCallTimeoutOnTheNamedExecutor() {
        runner.withBean("timedCalls", ExecutorService.class, Executors::newCachedThreadPool)
                .withPropertyValues(
                        "breakers.instances.wholesaler.call-timeout=50ms",
                        "breakers.instances.wholesaler.call-timeout-executor=timedCalls")
                .run(context -> {
                    String answer = context.getBean(CircuitBreakerFactory.class)
                            .create("wholesaler")
                            .run(
                                    () -> {
                                        try {
                                            new CountDownLatch(1).await();
                                        } catch (InterruptedException cancelled) {
                                            Thread.currentThread().interrupt();
                                        }
                                        return "late";
                                    },
                                    error -> error instanceof CallTimeoutException ? "timed out" : "other");

                    assertThat(answer).isEqualTo("timed out");
                    assertThat(context.getBean(BreakerRegistry.class)
                                    .breaker("wholesaler")
                                    .getMetrics()
                                    .failedCalls())
                            .isEqualTo(1);
                });
    }

    @Test
    void nothingWithoutSpringCloudCommons() {
        runner.withClassLoader(new FilteredClassLoader(
                        CircuitBreakerFactory.class.getPackageName(), "org.springframework.cloud.circuitbreaker"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(BreakerSpringCloudAutoConfiguration.class);
                });
    }

    @Test
    void noReactiveFactoryWithoutReactor() {
        runner.withClassLoader(new FilteredClassLoader(
                        "reactor.core", "org.springframework.cloud.circuitbreaker.resilience4j"))
                .run(context -> {
                    assertThat(context).hasSingleBean(BreakerCircuitBreakerFactory.class);
                    assertThat(context).doesNotHaveBean(ReactiveCircuitBreakerFactory.class);
                });
    }

    @Test
    void nothingWhenBreakersAreOff() {
        runner.withPropertyValues("breakers.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(CircuitBreakerFactory.class);
            assertThat(context).doesNotHaveBean(ReactiveCircuitBreakerFactory.class);
        });
    }

    @Test
    void anApplicationsOwnFactoriesWin() {
        runner.withUserConfiguration(OwnFactories.class).run(context -> {
            assertThat(context).getBean(CircuitBreakerFactory.class).isSameAs(OwnFactories.BLOCKING);
            assertThat(context).getBean(ReactiveCircuitBreakerFactory.class).isSameAs(OwnFactories.REACTIVE);
        });
    }

    @Test
    void customizersRunWhenTheFactoriesAreCreatedAndTheirSettingsShowOnTheBreakers() {
        runner.withUserConfiguration(Customizers.class)
                .withPropertyValues("breakers.instances.wholesaler.failure-rate-threshold=30")
                .run(context -> {
                    context.getBean(BreakerCircuitBreakerFactory.class);
                    context.getBean(ReactiveBreakerCircuitBreakerFactory.class);
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.breaker("wholesaler").getConfig().getFailureRateThreshold())
                            .isEqualTo(30f);
                    assertThat(registry.breaker("wholesaler").getConfig().getSlowCallDurationThreshold())
                            .isEqualTo(Duration.ofSeconds(2));
                    assertThat(registry.find("reviews")).isPresent();
                });
    }

    @Test
    void aBadValueInACustomizerStopsStartUpWithTheYamlMessage() {
        runner.withUserConfiguration(BadCustomizer.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis =
                    new io.breaker.spring.autoconfigure.BreakerFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription())
                    .isEqualTo("The breaker property 'breakers.instances.wholesaler.failure-rate-threshold' has the"
                            + " value '150', which is invalid: it is outside the allowed range.");
            assertThat(analysis.getAction())
                    .isEqualTo("Set 'breakers.instances.wholesaler.failure-rate-threshold' to a number in (0, 100].");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {

        @Bean
        Customizer<BreakerCircuitBreakerFactory> slowWholesaler() {
            return factory -> factory.configure(
                    builder -> builder.settings(b -> b.slowCallDurationThreshold(Duration.ofSeconds(2))), "wholesaler");
        }

        @Bean
        Customizer<ReactiveBreakerCircuitBreakerFactory> reviews() {
            return factory -> factory.configure(builder -> builder.settings(b -> b.minimumNumberOfCalls(5)), "reviews");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadCustomizer {

        @Bean
        Customizer<BreakerCircuitBreakerFactory> badThreshold() {
            return factory ->
                    factory.configure(builder -> builder.settings(b -> b.failureRateThreshold(150)), "wholesaler");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactories {

        static final CircuitBreakerFactory<Object, ConfigBuilder<Object>> BLOCKING = new CircuitBreakerFactory<>() {
            @Override
            public CircuitBreaker create(String id) {
                throw new UnsupportedOperationException();
            }

            @Override
            protected ConfigBuilder<Object> configBuilder(String id) {
                return Object::new;
            }

            @Override
            public void configureDefault(Function<String, Object> defaultConfiguration) {}
        };

        static final ReactiveCircuitBreakerFactory<Object, ConfigBuilder<Object>> REACTIVE =
                new ReactiveCircuitBreakerFactory<>() {
                    @Override
                    public org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker create(String id) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    protected ConfigBuilder<Object> configBuilder(String id) {
                        return Object::new;
                    }

                    @Override
                    public void configureDefault(Function<String, Object> defaultConfiguration) {}
                };

        @Bean
        CircuitBreakerFactory<Object, ConfigBuilder<Object>> ownFactory() {
            return BLOCKING;
        }

        @Bean
        ReactiveCircuitBreakerFactory<Object, ConfigBuilder<Object>> ownReactiveFactory() {
            return REACTIVE;
        }
    }
}
