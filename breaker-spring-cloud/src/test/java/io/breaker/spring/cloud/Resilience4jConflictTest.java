package io.breaker.spring.cloud;

import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.circuitbreaker.resilience4j.ReactiveResilience4JAutoConfiguration;
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JAutoConfiguration;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Resilience4j's Spring Cloud implementation next to ours. Runs in its own Surefire execution, the
 * only one whose class path holds resilience4j (see the POM); the other tests run without it, as an
 * application that chose breaker's implementation does.
 */
class Resilience4jConflictTest {

    @BeforeAll
    static void resilience4jIsOnTheClassPath() {
        assumeTrue(
                ClassUtils.isPresent(SpringCloudImplementationCheck.RESILIENCE4J_FACTORY, null),
                "runs in the resilience4j-conflict execution");
    }

    @Test
    void startUpStopsWhenResilience4jsImplementationIsConfiguredToo() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        BreakerAutoConfiguration.class,
                        BreakerSpringCloudAutoConfiguration.class,
                        Resilience4JAutoConfiguration.class,
                        ReactiveResilience4JAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis =
                            new SpringCloudConflictFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .contains("io.breaker:breaker-spring-cloud")
                            .contains("org.springframework.cloud:spring-cloud-circuitbreaker-resilience4j");
                    assertThat(analysis.getAction())
                            .contains("spring.cloud.circuitbreaker.resilience4j.enabled=false")
                            .contains("spring.autoconfigure.exclude="
                                    + BreakerSpringCloudAutoConfiguration.class.getName());
                });
    }

    @Test
    void resilience4jSwitchedOffLeavesOurs() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        BreakerAutoConfiguration.class,
                        BreakerSpringCloudAutoConfiguration.class,
                        Resilience4JAutoConfiguration.class,
                        ReactiveResilience4JAutoConfiguration.class))
                .withPropertyValues("spring.cloud.circuitbreaker.resilience4j.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context)
                            .getBean(CircuitBreakerFactory.class)
                            .isInstanceOf(BreakerCircuitBreakerFactory.class);
                });
    }
}
