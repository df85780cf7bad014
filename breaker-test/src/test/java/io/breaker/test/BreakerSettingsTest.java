package io.breaker.test;

import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import static io.breaker.State.CLOSED;
import static io.breaker.State.HALF_OPEN;
import static io.breaker.State.OPEN;
import static io.breaker.TransitionCause.FAILURE_RATE;
import static io.breaker.TransitionCause.PROBES_SUCCEEDED;
import static io.breaker.TransitionCause.PROBE_FAILED;
import static io.breaker.TransitionCause.SLOW_CALL_RATE;
import static io.breaker.TransitionCause.WAIT_ELAPSED;
import static io.breaker.test.assertj.BreakerAssertions.assertThat;
import static io.breaker.test.assertj.BreakerAssertions.assertThatTransitions;
import static io.breaker.test.assertj.BreakerAssertions.transition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings checked as a unit: no Spring context, no real time. */
class BreakerSettingsTest {

    private static final BreakerSettings SHOP = BreakerSettings.fromYaml("shop-settings.yml");

    @Test
    void threeFailuresInTenCallsDoNotTripFiveDoAndAfterTheWaitOneProbeClosesIt() {
        BreakerScenario wholesaler = SHOP.scenario("wholesaler");

        wholesaler.succeed(7).fail(3);
        assertThat(wholesaler).isClosed().hasFailureRate(30.0);

        wholesaler.fail(2); // 5 failures in the last 10 calls
        assertThat(wholesaler).isOpen().hasFailureRate(50.0);

        wholesaler.succeed().advance(Duration.ofSeconds(29)).succeed();
        assertThat(wholesaler.rejected()).isEqualTo(2);
        assertThat(wholesaler).isOpen();

        wholesaler.advance(Duration.ofSeconds(1)).fail(); // the probe fails: open again, for another 30 s
        assertThat(wholesaler).isOpen();
        wholesaler.advance(Duration.ofSeconds(30)).succeed();
        assertThat(wholesaler).isClosed();
        assertThatTransitions(wholesaler)
                .containsExactly(
                        transition("wholesaler", CLOSED, OPEN, FAILURE_RATE),
                        transition("wholesaler", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("wholesaler", HALF_OPEN, OPEN, PROBE_FAILED),
                        transition("wholesaler", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("wholesaler", HALF_OPEN, CLOSED, PROBES_SUCCEEDED));
    }

    @Test
    void exceptionsCountAsTheRecordAndIgnoreListsSay() {
        BreakerScenario ignored = SHOP.scenario("wholesaler");
        for (int i = 0; i < 10; i++) {
            ignored.raise(new IllegalArgumentException("a bad request of ours"));
        }
        assertThat(ignored).isClosed().hasFailureRate(-1.0);

        BreakerScenario recorded = SHOP.scenario("wholesaler");
        for (int i = 0; i < 5; i++) {
            recorded.raise(new IOException("connection refused"));
        }
        assertThat(recorded).isOpen();
        assertThat(recorded.breaker().getLastFailureType()).isEqualTo(IOException.class.getName());
    }

    @Test
    void callsOfTwoSecondsOrMoreAreSlowAndEightyPercentOfThemTrip() {
        BreakerScenario wholesaler = SHOP.scenario("wholesaler");
        wholesaler
                .succeed()
                .slow(Duration.ofMillis(1999))
                .slow(Duration.ofSeconds(2))
                .slow(Duration.ofSeconds(3));
        wholesaler.slow(Duration.ofSeconds(2)); // 3 slow of 5: 60 %
        assertThat(wholesaler).isClosed().hasSlowCallRate(60.0);
        wholesaler.slow(Duration.ofSeconds(2)).slow(Duration.ofSeconds(2)).slow(Duration.ofSeconds(2));
        wholesaler.succeed().slow(Duration.ofSeconds(2)); // 7 of 10: 70 %
        assertThat(wholesaler).isClosed();
        wholesaler.slow(Duration.ofSeconds(2)); // the instant success leaves the window: 8 of 10
        assertThat(wholesaler).isOpen().hasSlowCallRate(80.0);
        assertThatTransitions(wholesaler).containsExactly(transition("wholesaler", CLOSED, OPEN, SLOW_CALL_RATE));
        assertThat(wholesaler.clock().elapsed()).isEqualTo(Duration.ofMillis(18_999));
    }

    @Test
    void aLaterFileWinsAsAProfileFileDoesAndADocumentForAProfileIsLeftOut() {
        BreakerScenario wholesaler = BreakerSettings.fromYaml("shop-settings.yml", "shop-settings-fast.yml")
                .scenario("wholesaler");
        wholesaler.fail(5);
        wholesaler.advance(Duration.ofSeconds(5)).succeed();
        assertThat(wholesaler).isClosed();
        assertThat(wholesaler.breaker().getConfig().getFailureRateThreshold()).isEqualTo(50f);
        assertThat(wholesaler.breaker().getConfig().getWaitDurationInOpenState())
                .isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aBadValueFailsWithTheMessageOfStartUp() {
        Map<String, Object> settings = Map.of("breakers.instances.wholesaler.failure-rate-threshold", 150);
        assertThatThrownBy(() -> BreakerSettings.fromProperties(settings))
                .isInstanceOfSatisfying(InvalidBreakerSettingsException.class, invalid -> {
                    FailureAnalysis atStartUp =
                            startUpFailure("breakers.instances.wholesaler.failure-rate-threshold=150");
                    assertThat(invalid.getDescription())
                            .contains("breakers.instances.wholesaler.failure-rate-threshold")
                            .isEqualTo(atStartUp.getDescription());
                    assertThat(invalid.getAction()).isEqualTo(atStartUp.getAction());
                });
    }

    @Test
    void aMisspeltKeyFailsWithTheNearestKnownOne() {
        Map<String, Object> settings = Map.of("breakers.instances.wholesaler.failure-rate-treshold", 50);
        assertThatThrownBy(() -> BreakerSettings.fromProperties(settings))
                .isInstanceOfSatisfying(InvalidBreakerSettingsException.class, invalid -> {
                    FailureAnalysis atStartUp =
                            startUpFailure("breakers.instances.wholesaler.failure-rate-treshold=50");
                    assertThat(invalid.getMessage()).contains("failure-rate-threshold");
                    assertThat(invalid.getDescription()).isEqualTo(atStartUp.getDescription());
                });
    }

    @Test
    void aScenarioNamesAConfiguredBreaker() {
        assertThatThrownBy(() -> SHOP.scenario("wholesaller"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No breaker named 'wholesaller' under breakers.instances; the breakers configured are"
                        + " [wholesaler]");
    }

    private static FailureAnalysis startUpFailure(String property) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class))
                .withPropertyValues(property)
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis[0] = new BreakerFailureAnalyzer().analyze(context.getStartupFailure());
                });
        assertThat(analysis[0]).isNotNull();
        return analysis[0];
    }
}
