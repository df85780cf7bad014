package io.breaker;

import io.breaker.internal.Integration;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Fault injection: failures and latency put into protected calls before their method runs. */
class FaultsTest {

    private final FakeClock clock = new FakeClock();
    private final AtomicInteger ran = new AtomicInteger();

    private static BreakerConfig.Builder window10() {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
                .minimumNumberOfCalls(10)
                .failureRateThreshold(50);
    }

    private String work() {
        ran.incrementAndGet();
        return "ok";
    }

    @Test
    void aBreakerWithoutFaultsHasNone() {
        CircuitBreaker breaker = CircuitBreaker.of("plain", BreakerConfig.ofDefaults(), clock);
        assertThat(Integration.faults(breaker)).isNull();
        assertThat(BreakerConfig.ofDefaults().isFaultInjectionEnabled()).isFalse();
        // a latency with a rate of 0 injects nothing either
        BreakerConfig none = BreakerConfig.builder()
                .faultLatency(Duration.ofSeconds(1))
                .faultLatencyRate(0)
                .build();
        assertThat(none.isFaultInjectionEnabled()).isFalse();
        assertThat(Integration.faults(CircuitBreaker.of("none", none, clock))).isNull();
    }

    @Test
    void aFailureRateOf0NeverFailsEvenOnTheLowestDraw() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "zero",
                window10()
                        .faultFailureRate(0)
                        .faultLatency(Duration.ofMillis(1))
                        .faultLatencyRate(0.0001f)
                        .faultRandom(() -> 0.5)
                        .faultSleeper(nanos -> {})
                        .build(),
                clock);
        for (int i = 0; i < 1000; i++) {
            assertThat(breaker.execute(this::work)).isEqualTo("ok");
        }
        assertThat(ran).hasValue(1000);
        assertThat(breaker.getMetrics().failedCalls()).isZero();
    }

    @Test
    void aFailureRateOf100FailsEveryCallWithoutRunningItAndOpensTheBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "wholesaler",
                window10().faultFailureRate(100).faultRandom(() -> 0.999999).build(),
                clock);

        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(() -> breaker.execute(this::work))
                    .isInstanceOf(InjectedFaultException.class)
                    .hasMessageContaining("'wholesaler'")
                    .hasMessageContaining("injected");
        }

        assertThat(ran).hasValue(0);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getLastFailureType()).isEqualTo(InjectedFaultException.class.getName());
    }

    @Test
    void aRateInBetweenFailsTheCallsWhoseDrawIsBelowIt() {
        long seed = System.nanoTime();
        System.out.println("FaultsTest seed " + seed);
        SplittableRandom draws = new SplittableRandom(seed);
        List<Double> drawn = new ArrayList<>();
        DoubleSupplier random = () -> {
            double next = draws.nextDouble();
            drawn.add(next);
            return next;
        };
        CircuitBreaker breaker = CircuitBreaker.of(
                "half",
                BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.COUNT_BASED, 1000)
                        .minimumNumberOfCalls(1000)
                        .faultFailureRate(30)
                        .faultRandom(random)
                        .build(),
                clock);

        int failed = 0;
        for (int i = 0; i < 500; i++) {
            try {
                breaker.execute(this::work);
            } catch (InjectedFaultException injected) {
                failed++;
            }
        }

        long expected = drawn.stream().filter(d -> d < 0.3).count();
        assertThat(drawn).as("one draw per call, seed %d", seed).hasSize(500);
        assertThat(failed).as("seed %d", seed).isEqualTo((int) expected);
        assertThat(ran).hasValue(500 - failed);
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(failed);
    }

    @Test
    void theConfiguredExceptionIsThrownAsTheMethodsOwnCheckedOneToo() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "io",
                BreakerConfig.builder()
                        .faultFailureRate(100)
                        .faultException(IOException.class)
                        .build(),
                clock);

        assertThatThrownBy(() -> breaker.call(this::work))
                .isExactlyInstanceOf(IOException.class)
                .hasMessageContaining("'io'");
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(1);
        assertThat(ran).hasValue(0);
    }

    @Test
    void anInjectedExceptionTheBreakerIgnoresCountsNeitherWay() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "ignored",
                BreakerConfig.builder()
                        .faultFailureRate(100)
                        .ignoreExceptions(InjectedFaultException.class)
                        .build(),
                clock);

        assertThatThrownBy(() -> breaker.run(this::work)).isInstanceOf(InjectedFaultException.class);
        assertThat(breaker.getMetrics().failedCalls()).isZero();
        assertThat(breaker.getMetrics().calls()).isZero();
    }

    @Test
    void injectedLatencyDelaysTheCallBeforeItRunsAndCountsAsSlow() {
        List<Long> slept = new ArrayList<>();
        CircuitBreaker breaker = CircuitBreaker.of(
                "slow",
                BreakerConfig.builder()
                        .slowCallDurationThreshold(Duration.ofSeconds(1))
                        .faultLatency(Duration.ofSeconds(2))
                        .faultSleeper(nanos -> {
                            assertThat(ran).as("the method has not run yet").hasValue(0);
                            slept.add(nanos);
                            clock.advance(Duration.ofNanos(nanos));
                        })
                        .build(),
                clock);

        assertThat(breaker.execute(this::work)).isEqualTo("ok");

        assertThat(slept).containsExactly(Duration.ofSeconds(2).toNanos());
        assertThat(ran).hasValue(1);
        assertThat(breaker.getMetrics().slowCalls()).isEqualTo(1);
    }

    @Test
    void latencyAndFailureAreDrawnOnTheirOwnAndToldToListeners() {
        double[] sequence = {0.2, 0.9, 0.8, 0.1};
        AtomicInteger next = new AtomicInteger();
        List<FaultKind> told = new ArrayList<>();
        CircuitBreaker breaker = CircuitBreaker.of(
                "both",
                BreakerConfig.builder()
                        .faultFailureRate(50)
                        .faultLatency(Duration.ofMillis(100))
                        .faultLatencyRate(50)
                        .faultRandom(() -> sequence[next.getAndIncrement()])
                        .faultSleeper(nanos -> clock.advance(Duration.ofNanos(nanos)))
                        .build(),
                clock);
        breaker.addListener(new BreakerListener() {
            @Override
            public void onFaultInjected(CircuitBreaker b, FaultKind kind) {
                told.add(kind);
            }
        });

        assertThat(breaker.execute(this::work)).isEqualTo("ok"); // latency 0.2 < 0.5: delayed; failure 0.9: none
        assertThatThrownBy(() -> breaker.execute(this::work)) // latency 0.8: none; failure 0.1: fails
                .isInstanceOf(InjectedFaultException.class);

        assertThat(told).containsExactly(FaultKind.LATENCY, FaultKind.FAILURE);
        assertThat(ran).hasValue(1);
    }

    @Test
    void anInterruptWhileDelayedEndsTheCallAsTheMethodWould() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "interrupted",
                BreakerConfig.builder().faultLatency(Duration.ofMinutes(5)).build(),
                clock);

        Thread.currentThread().interrupt(); // Thread.sleep throws at once
        assertThatThrownBy(() -> breaker.execute(this::work)).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted())
                .as("the interrupt was taken by the sleep")
                .isFalse();
        assertThat(ran).hasValue(0);
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void faultsTurnOnAndOffWhileTheBreakerRuns() {
        CircuitBreaker breaker = CircuitBreaker.of("runtime", window10().build(), clock);
        assertThat(breaker.execute(this::work)).isEqualTo("ok");

        breaker.reconfigure(
                breaker.getConfig().toBuilder().faultFailureRate(100).build());
        assertThat(Integration.faults(breaker)).isNotNull();
        assertThatThrownBy(() -> breaker.execute(this::work)).isInstanceOf(InjectedFaultException.class);

        breaker.reconfigure(breaker.getConfig().toBuilder().faultFailureRate(0).build());
        assertThat(Integration.faults(breaker)).isNull();
        assertThat(breaker.execute(this::work)).isEqualTo("ok");
        assertThat(ran).hasValue(2);
        // each change is a reconfiguration: a CLOSED breaker starts a fresh window
        assertThat(breaker.getMetrics().failedCalls()).isZero();
        assertThat(breaker.getMetrics().calls()).isEqualTo(1);
    }

    @Test
    void badFaultSettingsAreRefusedNamingTheSettingAndTheAllowedValues() {
        assertThatThrownBy(() -> BreakerConfig.builder().faultFailureRate(150))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("faultFailureRate must be a number in [0, 100], was 150.0");
        assertThatThrownBy(() -> BreakerConfig.builder().faultLatencyRate(-1))
                .hasMessageStartingWith("faultLatencyRate must be a number in [0, 100]");
        assertThatThrownBy(() -> BreakerConfig.builder().faultLatency(Duration.ZERO))
                .hasMessageStartingWith("faultLatency must be a positive duration");
        assertThat(BreakerConfig.builder()
                        .faultException(IOException.class)
                        .build()
                        .getFaultException())
                .isEqualTo(IOException.class);
        assertThatThrownBy(() -> BreakerConfig.builder().faultException(NoPublicConstructor.class))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("faultException must be a class that extends java.lang.Throwable");
        assertThatThrownBy(() -> BreakerConfig.builder().faultException(AbstractFailure.class))
                .isInstanceOf(InvalidSettingException.class);
    }

    static final class NoPublicConstructor extends RuntimeException {
        private NoPublicConstructor(int code) {}
    }

    abstract static class AbstractFailure extends RuntimeException {
        public AbstractFailure(String message) {
            super(message);
        }
    }
}
