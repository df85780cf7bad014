package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.State;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Both health policies: open breakers reported but UP by default, DOWN only for named ones. */
class BreakersHealthTest {

    private final BreakerRegistry registry = BreakerRegistry.of(BreakerConfig.ofDefaults(), Map.of());

    @Test
    void anOpenBreakerLeavesTheApplicationUpByDefault() {
        registry.breaker("wholesaler").forceOpen();
        registry.breaker("payments");

        BreakersHealth.Report report = new BreakersHealth(registry, Set.of()).check();

        assertThat(report.up()).isTrue();
        assertThat(report.breakers()).containsOnlyKeys("payments", "wholesaler");
        assertThat(report.breakers().get("wholesaler").state()).isEqualTo(State.FORCED_OPEN);
        assertThat(report.breakers().get("wholesaler").downWhenOpen()).isFalse();
    }

    @Test
    void aBreakerNamedInDownWhenOpenMakesTheApplicationDownWhileItRejectsCalls() {
        registry.breaker("wholesaler").forceOpen();
        BreakersHealth health = new BreakersHealth(registry, Set.of("wholesaler"));

        assertThat(health.check().up()).isFalse();
        assertThat(health.check().breakers().get("wholesaler").downWhenOpen()).isTrue();

        registry.breaker("wholesaler").release();

        assertThat(health.check().up()).isTrue();
    }

    @Test
    void anOpenBreakerNotNamedInDownWhenOpenStaysUp() {
        registry.breaker("wholesaler").forceOpen();
        registry.breaker("payments");

        assertThat(new BreakersHealth(registry, Set.of("payments")).check().up()).isTrue();
    }

    @Test
    void aForcedClosedBreakerNeverMakesTheApplicationDown() {
        registry.breaker("wholesaler").forceClosed();

        assertThat(new BreakersHealth(registry, Set.of("wholesaler")).check().up()).isTrue();
    }

    @Test
    void theStarStandsForEveryBreaker() {
        registry.breaker("payments").forceOpen();

        assertThat(new BreakersHealth(registry, Set.of(BreakersHealth.ALL)).check().up()).isFalse();
    }

    @Test
    void theIndicatorReportsEachBreakerAsADetail() {
        registry.breaker("wholesaler").forceOpen();

        Health up = new BreakersHealthIndicator(new BreakersHealth(registry, Set.of())).health();
        Health down = new BreakersHealthIndicator(new BreakersHealth(registry, Set.of("wholesaler"))).health();

        assertThat(up.getStatus()).isEqualTo(Status.UP);
        assertThat(up.getDetails()).containsOnlyKeys("wholesaler");
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
    }
}
