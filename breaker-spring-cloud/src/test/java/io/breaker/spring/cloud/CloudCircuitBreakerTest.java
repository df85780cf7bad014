package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitOpenException;
import io.breaker.State;
import io.breaker.spring.call.CallTimeouts;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.NoFallbackAvailableException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code run(supplier)} and {@code run(supplier, fallback)} without Spring: the aspect's rules. */
class CloudCircuitBreakerTest {

    private final TestClock clock = new TestClock();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.ofDefaults(),
            Map.of(
                    "wholesaler",
                    BreakerConfig.builder()
                            .slidingWindow(io.breaker.SlidingWindowType.COUNT_BASED, 4)
                            .minimumNumberOfCalls(4)
                            .failureRateThreshold(50)
                            .waitDurationInOpenState(Duration.ofSeconds(10))
                            .ignoreExceptions(IllegalArgumentException.class)
                            .build()),
            clock);
    private final BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(registry);
    private final CircuitBreaker breaker = factory.create("wholesaler");
    private final AtomicInteger calls = new AtomicInteger();

    private String failing() {
        calls.incrementAndGet();
        throw new UncheckedIOException(new IOException("connection refused"));
    }

    private String healthy() {
        calls.incrementAndGet();
        return "live";
    }

    @Test
    void aBreakerWithACallTimeoutGivesUpAHungSupplierAndTheFallbackGetsTheTimeout() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            BreakerRegistry timed = BreakerRegistry.of(
                    BreakerConfig.ofDefaults(),
                    Map.of(
                            "wholesaler",
                            BreakerConfig.builder()
                                    .callTimeout(Duration.ofMillis(50))
                                    .build()),
                    clock);
            CallTimeouts onPool = new CallTimeouts(ignored -> pool, null);
            CircuitBreaker hung = new BreakerCircuitBreakerFactory(timed, null, null, onPool).create("wholesaler");
            CountDownLatch interrupted = new CountDownLatch(1);

            String answer = hung.run(
                    () -> {
                        try {
                            new CountDownLatch(1).await();
                        } catch (InterruptedException cancelled) {
                            interrupted.countDown();
                        }
                        return "late";
                    },
                    error -> "fallback:" + error.getClass().getSimpleName());

            assertThat(answer).isEqualTo("fallback:CallTimeoutException");
            assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(timed.breaker("wholesaler").getMetrics().failedCalls()).isEqualTo(1);
            assertThat(hung.run(() -> "live", error -> "fallback")).isEqualTo("live");
            assertThat(timed.breaker("wholesaler").getMetrics().calls()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutACallTimeoutTheSupplierRunsOnTheCallersThread() {
        Thread[] ranOn = new Thread[1];
        breaker.run(
                () -> {
                    ranOn[0] = Thread.currentThread();
                    return "live";
                },
                error -> "fallback");
        assertThat(ranOn[0]).isSameAs(Thread.currentThread());
    }

    @Test
    void aSuccessIsReturnedAndCounted() {
        assertThat(breaker.run(this::healthy, error -> "fallback")).isEqualTo("live");
        assertThat(registry.breaker("wholesaler").getMetrics().calls()).isEqualTo(1);
    }

    @Test
    void aFailureIsCountedAndAnsweredByTheFallback() {
        assertThat(breaker.run(
                        this::failing, error -> "fallback:" + error.getClass().getSimpleName()))
                .isEqualTo("fallback:UncheckedIOException");
        assertThat(registry.breaker("wholesaler").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void anIgnoredExceptionReachesTheCallerUnchangedAndIsNotCounted() {
        IllegalArgumentException answer = new IllegalArgumentException("unknown book");
        assertThatThrownBy(() -> breaker.run(
                        () -> {
                            throw answer;
                        },
                        error -> "fallback"))
                .isSameAs(answer);
        assertThat(registry.breaker("wholesaler").getMetrics().calls()).isZero();
    }

    @Test
    void opensAndSendsRejectionsToTheFallbackAsCircuitOpenExceptionWithoutRunningTheCall() {
        for (int i = 0; i < 4; i++) {
            breaker.run(this::failing, error -> "fallback");
        }
        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(State.OPEN);
        int before = calls.get();

        Object[] seen = new Object[1];
        String answer = breaker.run(this::healthy, error -> {
            seen[0] = error;
            return "fallback-open";
        });

        assertThat(answer).isEqualTo("fallback-open");
        assertThat(seen[0])
                .isInstanceOfSatisfying(
                        CircuitOpenException.class,
                        rejected -> assertThat(rejected.getBreakerName()).isEqualTo("wholesaler"));
        assertThat(calls.get()).isEqualTo(before);
    }

    @Test
    void theProbeDecides() {
        for (int i = 0; i < 4; i++) {
            breaker.run(this::failing, error -> "fallback");
        }
        clock.advance(Duration.ofSeconds(10));
        assertThat(breaker.run(this::failing, error -> "fallback")).isEqualTo("fallback");
        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(State.OPEN);

        clock.advance(Duration.ofSeconds(10));
        assertThat(breaker.run(this::healthy, error -> "fallback")).isEqualTo("live");
        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void withoutAFallbackAFailureAndARejectionComeAsSpringCloudsNoFallbackAvailableException() {
        assertThatThrownBy(() -> breaker.run(this::failing))
                .isInstanceOf(NoFallbackAvailableException.class)
                .hasCauseInstanceOf(UncheckedIOException.class);
        registry.breaker("wholesaler").forceOpen();
        assertThatThrownBy(() -> breaker.run(this::healthy))
                .isInstanceOf(NoFallbackAvailableException.class)
                .hasCauseInstanceOf(CircuitOpenException.class);
    }

    @Test
    void withoutAFallbackAnIgnoredExceptionIsNotWrapped() {
        IllegalArgumentException answer = new IllegalArgumentException("unknown book");
        assertThatThrownBy(() -> breaker.run(() -> {
                    throw answer;
                }))
                .isSameAs(answer);
    }

    @Test
    void aCallIsNeverCutByATimeout() {
        String answer = breaker.run(
                () -> {
                    clock.advance(Duration.ofMinutes(5));
                    return "late but whole";
                },
                error -> "fallback");
        assertThat(answer).isEqualTo("late but whole");
        assertThat(registry.breaker("wholesaler").getMetrics().failedCalls()).isZero();
    }

    @Test
    void aCheckedExceptionThrownSneakilyIsCountedAndReachesTheFallback() {
        String answer = breaker.run(
                CloudCircuitBreakerTest::sneaky, error -> error.getClass().getSimpleName());
        assertThat(answer).isEqualTo("IOException");
        assertThat(registry.breaker("wholesaler").getMetrics().failedCalls()).isEqualTo(1);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> String sneaky() throws E {
        throw (E) new IOException("checked");
    }
}
