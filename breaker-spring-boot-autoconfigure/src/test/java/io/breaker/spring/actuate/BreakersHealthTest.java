package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Both health policies: open breakers reported but UP by default, DOWN only for named ones. */
@Tag(BootLine.TAG)
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

        assertThat(new BreakersHealth(registry, Set.of("payments")).check().up())
                .isTrue();
    }

    @Test
    void anOpenBreakerWhoseWaitElapsedIsReadyToProbeAndNoLongerHoldsTheApplicationDown() {
        AtomicLong now = new AtomicLong();
        BreakerRegistry timed = BreakerRegistry.of(
                BreakerConfig.builder()
                        .minimumNumberOfCalls(1)
                        .waitDurationInOpenState(Duration.ofSeconds(10))
                        .build(),
                Map.of(),
                now::get);
        CircuitBreaker breaker = timed.breaker("wholesaler");
        breaker.onError(breaker.tryAcquirePermit(), 0L, new IllegalStateException("down"));
        BreakersHealth health = new BreakersHealth(timed, Set.of("wholesaler"));
        assertThat(health.check().up()).isFalse();
        assertThat(health.check().breakers().get("wholesaler").readyToProbe()).isFalse();

        now.addAndGet(Duration.ofSeconds(10).toNanos());

        assertThat(health.check().up()).isTrue();
        assertThat(health.check().breakers().get("wholesaler").readyToProbe()).isTrue();
        assertThat(breaker.getState()).as("reading health changes nothing").isEqualTo(State.OPEN);
    }

    @Test
    void aHalfOpenBreakerIsProbingAndDoesNotHoldTheApplicationDown() {
        AtomicLong now = new AtomicLong();
        BreakerRegistry timed = BreakerRegistry.of(
                BreakerConfig.builder()
                        .minimumNumberOfCalls(1)
                        .waitDurationInOpenState(Duration.ofSeconds(10))
                        .build(),
                Map.of(),
                now::get);
        CircuitBreaker breaker = timed.breaker("wholesaler");
        breaker.onError(breaker.tryAcquirePermit(), 0L, new IllegalStateException("down"));
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(breaker.tryAcquirePermit()).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);

        assertThat(new BreakersHealth(timed, Set.of("wholesaler")).check().up()).isTrue();
    }

    @Test
    void aForcedClosedBreakerNeverMakesTheApplicationDown() {
        registry.breaker("wholesaler").forceClosed();

        assertThat(new BreakersHealth(registry, Set.of("wholesaler")).check().up())
                .isTrue();
    }

    @Test
    void theStarStandsForEveryBreaker() {
        registry.breaker("payments").forceOpen();

        assertThat(new BreakersHealth(registry, Set.of(BreakersHealth.ALL))
                        .check()
                        .up())
                .isFalse();
    }

    @Test
    void theIndicatorReportsEachBreakerAsADetail() {
        registry.breaker("wholesaler").forceOpen();

        Object up = BootLine.breakersHealthIndicator(new BreakersHealth(registry, Set.of()));
        Object down = BootLine.breakersHealthIndicator(new BreakersHealth(registry, Set.of("wholesaler")));

        assertThat(BootLine.status(up)).isEqualTo("UP");
        assertThat(BootLine.details(up)).containsOnlyKeys("wholesaler");
        assertThat(BootLine.status(down)).isEqualTo("DOWN");
    }
}
