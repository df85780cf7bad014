package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitOpenException;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerObservationAutoConfiguration;
import io.breaker.spring.observation.BreakerObservations;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.observation.CircuitBreakerObservationContext;
import org.springframework.cloud.client.circuitbreaker.observation.DefaultCircuitBreakerObservationConvention;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Map;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The factories' calls as observations, with Spring Cloud's names: one around the supplier (or the
 * publisher), one around the fallback when it answers, none at all without an observation registry.
 * The reactive factory's have the names and key values of the blocking one's.
 */
@Tag("boot-line")
class ObservedCallsTest {

    private static final String NAME = "spring.cloud.circuitbreaker";
    private static final String TYPE = "spring.cloud.circuitbreaker.type";

    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.ofDefaults(),
            Map.of(
                    "x",
                    BreakerConfig.builder()
                            .slidingWindow(SlidingWindowType.COUNT_BASED, 2)
                            .minimumNumberOfCalls(2)
                            .waitDurationInOpenState(Duration.ofSeconds(10))
                            .build()),
            new TestClock());

    @Test
    void aCallOfTheFactoryIsOneObservationOfTheSupplierWithSpringCloudsNameAndTags() {
        BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(registry, observations, null);

        assertThat(factory.create("x").run(() -> "live", error -> "fallback")).isEqualTo("live");

        assertThat(observations)
                .hasNumberOfObservationsEqualTo(1)
                .hasSingleObservationThat()
                .hasNameEqualTo(NAME)
                .hasContextualNameEqualTo("circuit-breaker")
                .hasLowCardinalityKeyValue(TYPE, "supplier")
                .hasBeenStarted()
                .hasBeenStopped()
                .doesNotHaveError();
        assertThat(registry.breaker("x").getMetrics().calls()).isEqualTo(1);
    }

    @Test
    void aFailureIsTheSuppliersObservationWithItsErrorThenTheFallbacksAndARejectionOnlyTheFallbacks() {
        BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(registry, observations, null);
        IllegalStateException outage = new IllegalStateException("backend down");

        for (int i = 0; i < 2; i++) {
            assertThat(factory.create("x")
                            .<String>run(
                                    () -> {
                                        throw outage;
                                    },
                                    error -> "fallback"))
                    .isEqualTo("fallback");
        }
        assertThat(observations).hasNumberOfObservationsEqualTo(4);
        assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(NAME, 4)
                .hasAnObservation(observation ->
                        observation.hasLowCardinalityKeyValue(TYPE, "supplier").hasError(outage))
                .hasAnObservation(observation -> observation
                        .hasContextualNameEqualTo("circuit-breaker fallback")
                        .hasLowCardinalityKeyValue(TYPE, "function")
                        .doesNotHaveError());

        observations.clear();
        Throwable[] received = new Throwable[1];
        assertThat(factory.create("x").run(() -> "not run", error -> {
                    received[0] = error;
                    return "fallback";
                }))
                .isEqualTo("fallback");
        assertThat(received[0]).isInstanceOf(CircuitOpenException.class);
        assertThat(observations)
                .hasSingleObservationThat()
                .hasContextualNameEqualTo("circuit-breaker fallback")
                .hasLowCardinalityKeyValue(TYPE, "function");
    }

    @Test
    void aConventionGivenToTheFactoryNamesTheObservations() {
        DefaultCircuitBreakerObservationConvention renamed = new DefaultCircuitBreakerObservationConvention() {
            @Override
            public String getName() {
                return "bookshop.wholesaler";
            }

            @Override
            public KeyValues getLowCardinalityKeyValues(CircuitBreakerObservationContext context) {
                return super.getLowCardinalityKeyValues(context).and("shop", "books");
            }
        };
        BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(registry, observations, renamed);

        factory.create("x").run(() -> "live");

        assertThat(observations)
                .hasSingleObservationThat()
                .hasNameEqualTo("bookshop.wholesaler")
                .hasLowCardinalityKeyValue("shop", "books")
                .hasLowCardinalityKeyValue(TYPE, "supplier");
    }

    @Test
    void withoutARegistryOrWithTheNoOpOneTheFactoryGivesTheBreakerItself() {
        assertThat(new BreakerCircuitBreakerFactory(registry).create("x")).isInstanceOf(CloudCircuitBreaker.class);
        assertThat(new BreakerCircuitBreakerFactory(registry, ObservationRegistry.NOOP, null).create("x"))
                .isInstanceOf(CloudCircuitBreaker.class);
        assertThat(new BreakerCircuitBreakerFactory(registry, observations, null).create("x"))
                .isNotInstanceOf(CloudCircuitBreaker.class);
    }

    @Test
    void theAutoConfiguredFactoryObservesWithTheApplicationsRegistryAndOnlyWithIt() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        BreakerAutoConfiguration.class, BreakerSpringCloudAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.springframework.cloud.circuitbreaker.resilience4j"));

        runner.run(context -> {
            context.getBean(CircuitBreakerFactory.class).create("x").run(() -> "live");
            assertThat(context.getBean(CircuitBreakerFactory.class).create("x"))
                    .isInstanceOf(CloudCircuitBreaker.class);
        });
        TestObservationRegistry applications = TestObservationRegistry.create();
        runner.withBean(ObservationRegistry.class, () -> applications).run(context -> {
            context.getBean(CircuitBreakerFactory.class).create("x").run(() -> "live");
            assertThat(applications)
                    .hasSingleObservationThat()
                    .hasNameEqualTo(NAME)
                    .hasLowCardinalityKeyValue(TYPE, "supplier");
        });
    }

    @Test
    void withTheStartersObservationsTooACallIsObservedOnceUnderSpringCloudsNames() {
        TestObservationRegistry applications = TestObservationRegistry.create();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        BreakerAutoConfiguration.class,
                        BreakerObservationAutoConfiguration.class,
                        BreakerSpringCloudAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.springframework.cloud.circuitbreaker.resilience4j"))
                .withPropertyValues(
                        "breakers.instances.x.sliding-window-size=2", "breakers.instances.x.minimum-number-of-calls=2")
                .withBean(ObservationRegistry.class, () -> applications)
                .run(context -> {
                    assertThat(context).hasSingleBean(BreakerObservations.class);
                    for (int i = 0; i < 3; i++) {
                        context.getBean(CircuitBreakerFactory.class)
                                .create("x")
                                .run(
                                        () -> {
                                            throw new IllegalStateException("down");
                                        },
                                        error -> "fallback");
                    }

                    assertThat(context.getBean(BreakerRegistry.class)
                                    .breaker("x")
                                    .getState())
                            .isEqualTo(State.OPEN);
                    assertThat(applications)
                            .hasNumberOfObservationsWithNameEqualTo(NAME, 5) // two supplier runs, three fallbacks
                            .hasNumberOfObservationsWithNameEqualTo("breaker.call", 0);
                });
    }

    @Test
    void aReactiveRunIsOneObservationOfThePublisherWithTheBlockingOnesNamesAndTags() {
        ReactiveCircuitBreaker breaker =
                new ReactiveBreakerCircuitBreakerFactory(registry, observations, null).create("x");

        assertThat(breaker.run(Mono.just("live"), error -> Mono.just("fallback"))
                        .block())
                .isEqualTo("live");
        assertThat(observations)
                .hasSingleObservationThat()
                .hasNameEqualTo(NAME)
                .hasContextualNameEqualTo("circuit-breaker")
                .hasLowCardinalityKeyValue(TYPE, "supplier")
                .hasBeenStarted()
                .hasBeenStopped()
                .doesNotHaveError();
        assertThat(registry.breaker("x").getMetrics().calls())
                .as("the breaker named x counted the observed call")
                .isEqualTo(1);

        observations.clear();
        assertThat(breaker.run(Flux.just("a", "b"), error -> Flux.just("fallback"))
                        .collectList()
                        .block())
                .containsExactly("a", "b");
        assertThat(observations)
                .hasSingleObservationThat()
                .hasNameEqualTo(NAME)
                .hasLowCardinalityKeyValue(TYPE, "supplier")
                .hasBeenStopped();
        assertThat(registry.breaker("x").getMetrics().calls()).isEqualTo(2);
    }

    @Test
    void aReactiveFailureIsThePublishersObservationWithItsErrorThenTheFallbacksAndARejectionOnlyTheFallbacks() {
        ReactiveCircuitBreaker breaker =
                new ReactiveBreakerCircuitBreakerFactory(registry, observations, null).create("x");
        IllegalStateException outage = new IllegalStateException("backend down");

        for (int i = 0; i < 2; i++) {
            assertThat(breaker.run(Mono.<String>error(outage), error -> Mono.just("fallback"))
                            .block())
                    .isEqualTo("fallback");
        }
        assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(NAME, 4)
                .hasAnObservation(observation ->
                        observation.hasLowCardinalityKeyValue(TYPE, "supplier").hasError(outage))
                .hasAnObservation(observation -> observation
                        .hasContextualNameEqualTo("circuit-breaker fallback")
                        .hasLowCardinalityKeyValue(TYPE, "function")
                        .doesNotHaveError());

        observations.clear();
        Throwable[] received = new Throwable[1];
        assertThat(breaker.run(Mono.just("not run"), error -> {
                            received[0] = error;
                            return Mono.just("fallback");
                        })
                        .block())
                .isEqualTo("fallback");
        assertThat(received[0]).isInstanceOf(CircuitOpenException.class);
        assertThat(observations)
                .hasSingleObservationThat()
                .hasContextualNameEqualTo("circuit-breaker fallback")
                .hasLowCardinalityKeyValue(TYPE, "function")
                .hasBeenStopped();
    }

    @Test
    void theReactiveFactoryGivesTheBreakerItselfWithoutARegistryAndObservesWithTheApplicationsOne() {
        assertThat(new ReactiveBreakerCircuitBreakerFactory(registry).create("x"))
                .isInstanceOf(ReactiveCloudCircuitBreaker.class);
        assertThat(new ReactiveBreakerCircuitBreakerFactory(registry, ObservationRegistry.NOOP, null).create("x"))
                .isInstanceOf(ReactiveCloudCircuitBreaker.class);

        TestObservationRegistry applications = TestObservationRegistry.create();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        BreakerAutoConfiguration.class, BreakerSpringCloudAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.springframework.cloud.circuitbreaker.resilience4j"))
                .withBean(ObservationRegistry.class, () -> applications)
                .run(context -> {
                    context.getBean(ReactiveCircuitBreakerFactory.class)
                            .create("x")
                            .run(Mono.just("live"))
                            .block();
                    assertThat(applications)
                            .hasSingleObservationThat()
                            .hasNameEqualTo(NAME)
                            .hasLowCardinalityKeyValue(TYPE, "supplier");
                });
    }
}
