package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.SlidingWindowType;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which breaker an id and a group stand for, and settings made through the SPI, without Spring. */
@ExtendWith(OutputCaptureExtension.class)
class FactoryResolutionTest {

    private final BreakerConfig wholesaler =
            BreakerConfig.builder().failureRateThreshold(30).build();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.builder().failureRateThreshold(70).build(), Map.of("wholesaler", wholesaler));
    private final BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(registry);

    @Test
    void anIdWithSettingsOfItsOwnIsThatBreaker() {
        factory.create("wholesaler").run(() -> "ok");
        assertThat(registry.breaker("wholesaler").getMetrics().calls()).isEqualTo(1);
    }

    @Test
    void anIdWithoutSettingsInAConfiguredGroupIsTheGroupsBreaker() {
        factory.create("WholesalerClientdeliveryDaysString", "wholesaler").run(() -> "ok");
        assertThat(registry.find("WholesalerClientdeliveryDaysString")).isEmpty();
        assertThat(registry.breaker("wholesaler").getMetrics().calls()).isEqualTo(1);
    }

    @Test
    void anIdWithSettingsOfItsOwnWinsOverItsGroup() {
        factory.create("wholesaler", "other").run(() -> "ok");
        assertThat(registry.find("other")).isEmpty();
    }

    @Test
    void anyOtherIdGetsABreakerOfItsOwnWithTheDefaultsLoggedOnce(CapturedOutput output) {
        factory.create("catalogue").run(() -> "ok");
        factory.create("catalogue").run(() -> "ok");
        assertThat(registry.breaker("catalogue").getConfig().getFailureRateThreshold())
                .isEqualTo(70f);
        assertThat(registry.breaker("catalogue").getMetrics().calls()).isEqualTo(2);
        assertThat(output.getAll())
                .containsOnlyOnce("Breaker 'catalogue', asked for through Spring Cloud CircuitBreaker, uses"
                        + " breakers.defaults (configure it under breakers.instances.catalogue)");
    }

    @Test
    void createReturnsTheSameBreakerEveryTime() {
        assertThat(factory.create("wholesaler")).isSameAs(factory.create("wholesaler"));
        assertThat(factory.create("x", "wholesaler")).isSameAs(factory.create("wholesaler"));
    }

    @Test
    void anIdThatIsNoValidBreakerNameAndNamesNoConfiguredBreakerIsRefused() {
        assertThatThrownBy(() -> factory.create("WholesalerClient#deliveryDays(String)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Spring Cloud CircuitBreaker id 'WholesalerClient#deliveryDays(String)'")
                .hasMessageContaining("spring.cloud.openfeign.circuitbreaker.group.enabled=true");
        factory.create("WholesalerClient#deliveryDays(String)", "wholesaler").run(() -> "ok");
    }

    @Test
    void configureChangesAConfiguredBreakerOnTopOfItsSettings() {
        factory.configure(
                builder -> builder.settings(b -> b.slowCallDurationThreshold(Duration.ofSeconds(2))), "wholesaler");
        BreakerConfig config = registry.breaker("wholesaler").getConfig();
        assertThat(config.getFailureRateThreshold()).isEqualTo(30f);
        assertThat(config.getSlowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void configureCreatesABreakerThatDidNotExistFromTheDefaultsAndItsSettings() {
        factory.configure(builder -> builder.settings(b -> b.minimumNumberOfCalls(20)), "catalogue", "reviews");
        assertThat(registry.find("catalogue")).isPresent();
        assertThat(registry.breaker("reviews").getConfig().getMinimumNumberOfCalls())
                .isEqualTo(20);
        assertThat(registry.breaker("reviews").getConfig().getFailureRateThreshold())
                .isEqualTo(70f);
        factory.create("id-in-group", "reviews").run(() -> "ok");
        assertThat(registry.breaker("reviews").getMetrics().calls()).isEqualTo(1);
    }

    @Test
    void configureAfterACreateChangesWhatTheIdStandsFor() {
        assertThat(factory.create("catalogue", "wholesaler")).isSameAs(factory.create("wholesaler"));
        factory.configure(builder -> builder.settings(b -> b.minimumNumberOfCalls(20)), "catalogue");
        factory.create("catalogue", "wholesaler").run(() -> "ok");
        assertThat(registry.breaker("catalogue").getMetrics().calls()).isEqualTo(1);
        assertThat(registry.breaker("wholesaler").getMetrics().calls()).isZero();
    }

    @Test
    void aBadValueIsRefusedWithTheMessageOfTheSameValueInYaml() {
        assertThatThrownBy(() ->
                        factory.configure(builder -> builder.settings(b -> b.failureRateThreshold(150)), "wholesaler"))
                .isInstanceOfSatisfying(InvalidBreakerPropertyException.class, invalid -> {
                    assertThat(invalid.getProperty()).isEqualTo("breakers.instances.wholesaler.failure-rate-threshold");
                    assertThat(invalid.getValue()).isEqualTo("150");
                    assertThat(invalid.getAllowed()).isEqualTo("a number in (0, 100]");
                });
        assertThat(registry.breaker("wholesaler").getConfig().getFailureRateThreshold())
                .isEqualTo(30f);
    }

    @Test
    void theSlidingWindowTypeOfAConfiguredBreakerIsNotChangedInCode() {
        registry.breaker("wholesaler"); // a configured breaker exists from start-up
        assertThatThrownBy(() -> factory.configure(
                        builder -> builder.settings(b -> b.slidingWindow(SlidingWindowType.TIME_BASED, 10)),
                        "wholesaler"))
                .hasMessageContaining("sliding-window-type under breakers.instances.wholesaler");
    }

    @Test
    void configureDefaultGivesIdsWithoutSettingsTheirConfig(CapturedOutput output) {
        factory.configureDefault(
                id -> BreakerConfig.builder().failureRateThreshold(10).build());
        factory.create("catalogue").run(() -> "ok");
        assertThat(registry.breaker("catalogue").getConfig().getFailureRateThreshold())
                .isEqualTo(10f);
        assertThat(registry.breaker("wholesaler").getConfig().getFailureRateThreshold())
                .isEqualTo(30f);
        assertThat(output.getAll()).contains("uses the factory's configureDefault");
    }

    @Test
    void theReactiveFactoryResolvesTheSameWay() {
        ReactiveBreakerCircuitBreakerFactory reactive = new ReactiveBreakerCircuitBreakerFactory(registry);
        reactive.create("some-id", "wholesaler")
                .run(reactor.core.publisher.Mono.just("ok"))
                .block();
        assertThat(registry.breaker("wholesaler").getMetrics().calls()).isEqualTo(1);
    }
}
