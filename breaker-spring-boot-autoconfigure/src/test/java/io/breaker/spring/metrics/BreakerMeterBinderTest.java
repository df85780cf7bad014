package io.breaker.spring.metrics;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.internal.Integration;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Real meter values after a scripted sequence of calls. */
class BreakerMeterBinderTest {

    private final AtomicLong nanos = new AtomicLong();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 5)
                    .minimumNumberOfCalls(5)
                    .failureRateThreshold(50)
                    .slowCallDurationThreshold(Duration.ofMillis(100))
                    .waitDurationInOpenState(Duration.ofSeconds(10))
                    .ignoreExceptions(IllegalArgumentException.class)
                    .build(),
            Map.of(),
            nanos::get);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void countsAndTimesEveryOutcomeRejectionAndTransition() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        new BreakerMeterBinder(registry).bindTo(meters);
        int metersBeforeCalls = meters.getMeters().size();

        succeed(breaker, 10);
        succeed(breaker, 200);
        fail(breaker, 1, new IllegalArgumentException("not found"));
        fail(breaker, 20, new IOException("reset"));
        fail(breaker, 300, new IOException("timeout"));
        fail(breaker, 30, new IOException("reset"));
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);

        assertThat(timer("success").count()).isEqualTo(1);
        assertThat(timer("success").totalTime(TimeUnit.MILLISECONDS)).isEqualTo(10);
        assertThat(timer("slow_success").count()).isEqualTo(1);
        assertThat(timer("slow_success").totalTime(TimeUnit.MILLISECONDS)).isEqualTo(200);
        assertThat(timer("ignored").count()).isEqualTo(1);
        assertThat(timer("failure").count()).isEqualTo(2);
        assertThat(timer("failure").totalTime(TimeUnit.MILLISECONDS)).isEqualTo(50);
        assertThat(timer("slow_failure").count()).isEqualTo(1);
        assertThat(meters.get("breaker.calls.rejected")
                        .tag("name", "wholesaler")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(state("open")).isEqualTo(1);
        assertThat(state("closed")).isZero();
        assertThat(gauge("breaker.failure.rate")).isEqualTo(60);
        assertThat(gauge("breaker.slow.call.rate")).isEqualTo(40);
        assertThat(transitions("closed", "open")).isEqualTo(1);
        assertThat(transitions("open", "half_open")).isZero();
        assertThat(meters.getMeters()).hasSize(metersBeforeCalls);

        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        succeed(breaker, 10);

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(transitions("open", "half_open")).isEqualTo(1);
        assertThat(transitions("half_open", "closed")).isEqualTo(1);
        assertThat(state("closed")).isEqualTo(1);
        assertThat(state("open")).isZero();
        assertThat(gauge("breaker.failure.rate")).isEqualTo(-1);
        assertThat(meters.getMeters()).hasSize(metersBeforeCalls);
    }

    @Test
    void showsTheThresholdsAndTheTimeLeftUntilTheNextProbe() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        new BreakerMeterBinder(registry).bindTo(meters);

        assertThat(gauge("breaker.failure.rate.threshold")).isEqualTo(50);
        assertThat(gauge("breaker.slow.call.rate.threshold")).isEqualTo(100);
        assertThat(gauge("breaker.wait.remaining")).isEqualTo(-1);

        for (int i = 0; i < 5; i++) {
            fail(breaker, 1, new IOException("reset"));
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(gauge("breaker.wait.remaining")).isEqualTo(10);
        nanos.addAndGet(Duration.ofMillis(7_500).toNanos());
        assertThat(gauge("breaker.wait.remaining")).isEqualTo(2.5);
        nanos.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(gauge("breaker.wait.remaining")).isZero();

        breaker.reconfigure(BreakerConfig.builder()
                .failureRateThreshold(30)
                .slowCallDurationThreshold(Duration.ofMillis(100))
                .slowCallRateThreshold(80)
                .build());
        assertThat(gauge("breaker.failure.rate.threshold")).isEqualTo(30);
        assertThat(gauge("breaker.slow.call.rate.threshold")).isEqualTo(80);
    }

    @Test
    void theSlowCallThresholdIsMinusOneWhileSlowCallDetectionIsOff() {
        BreakerRegistry withoutSlowCallDetection = BreakerRegistry.ofDefaults();
        withoutSlowCallDetection.breaker("wholesaler");
        new BreakerMeterBinder(withoutSlowCallDetection).bindTo(meters);

        assertThat(gauge("breaker.slow.call.rate.threshold")).isEqualTo(-1);
    }

    @Test
    void aBreakerCreatedAfterBindingGetsItsMetersAtCreation() {
        new BreakerMeterBinder(registry).bindTo(meters);

        registry.breaker("late");

        assertThat(meters.find("breaker.calls").tag("name", "late").timers()).hasSize(CallOutcome.values().length);
        assertThat(meters.find("breaker.state").tag("name", "late").gauges()).hasSize(State.values().length);
        assertThat(meters.find("breaker.calls.rejected").tag("name", "late").counter())
                .isNotNull();
        assertThat(meters.find("breaker.transitions").tag("name", "late").counters())
                .hasSize(4);
    }

    @Test
    void metersMakeTheBreakerTimeItsCalls() {
        BreakerRegistry withoutSlowCallDetection = BreakerRegistry.ofDefaults();
        CircuitBreaker breaker = withoutSlowCallDetection.breaker("wholesaler");
        assertThat(Integration.isTimingCalls(breaker)).isFalse();

        new BreakerMeterBinder(withoutSlowCallDetection).bindTo(meters);

        assertThat(Integration.isTimingCalls(breaker)).isTrue();
    }

    @Test
    void anOperatorTransitionGetsItsCounterOnFirstUse() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        new BreakerMeterBinder(registry).bindTo(meters);

        breaker.forceOpen();
        breaker.release();
        breaker.forceOpen();

        assertThat(transitions("closed", "forced_open")).isEqualTo(2);
        assertThat(transitions("forced_open", "closed")).isEqualTo(1);
        assertThat(state("forced_open")).isEqualTo(1);
    }

    @Test
    void everyMeterHasADescription() {
        registry.breaker("wholesaler");
        new BreakerMeterBinder(registry).bindTo(meters);

        assertThat(meters.getMeters())
                .isNotEmpty()
                .allSatisfy(meter -> assertThat(meter.getId().getDescription())
                        .as(meter.getId().getName())
                        .isNotBlank())
                .extracting(meter -> meter.getId().getName())
                .containsOnly(
                        "breaker.calls",
                        "breaker.calls.rejected",
                        "breaker.state",
                        "breaker.failure.rate",
                        "breaker.slow.call.rate",
                        "breaker.transitions",
                        "breaker.failure.rate.threshold",
                        "breaker.slow.call.rate.threshold",
                        "breaker.wait.remaining");
    }

    private Timer timer(String outcome) {
        return meters.get("breaker.calls")
                .tag("name", "wholesaler")
                .tag("outcome", outcome)
                .timer();
    }

    private double state(String state) {
        return meters.get("breaker.state")
                .tag("name", "wholesaler")
                .tag("state", state)
                .gauge()
                .value();
    }

    private double gauge(String name) {
        return meters.get(name).tag("name", "wholesaler").gauge().value();
    }

    private double transitions(String from, String to) {
        return meters.get("breaker.transitions")
                .tag("name", "wholesaler")
                .tag("from", from)
                .tag("to", to)
                .counter()
                .count();
    }

    private static void succeed(CircuitBreaker breaker, long millis) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onSuccess(permit, TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private static void fail(CircuitBreaker breaker, long millis, Exception error) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onError(permit, TimeUnit.MILLISECONDS.toNanos(millis), error);
    }
}
