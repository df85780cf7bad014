package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.spring.call.CallTimeouts;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults injected into the calls of Spring Cloud's factories, without Spring: a supplier or a
 * publisher never runs when its call draws a failure, the fallback gets the injected exception, and a
 * latency on a timed call is cut by the call timeout before the supplier runs.
 */
class FaultInjectionFactoriesTest {

    private final TestClock clock = new TestClock();
    private final AtomicInteger ran = new AtomicInteger();

    private BreakerRegistry registry(BreakerConfig config) {
        return BreakerRegistry.of(BreakerConfig.ofDefaults(), Map.of("wholesaler", config), clock);
    }

    @Test
    void aBlockingRunGivesTheFallbackTheInjectedFailureWithoutRunningTheSupplier() {
        BreakerRegistry registry =
                registry(BreakerConfig.builder().faultFailureRate(100).build());
        CircuitBreaker breaker = new BreakerCircuitBreakerFactory(registry).create("wholesaler");

        String answer = breaker.run(
                () -> "live:" + ran.incrementAndGet(),
                error -> "fallback:" + error.getClass().getSimpleName());

        assertThat(answer).isEqualTo("fallback:InjectedFaultException");
        assertThat(ran).hasValue(0);
        assertThat(registry.breaker("wholesaler").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void anInjectedLatencyOnATimedRunIsCutByTheCallTimeout() {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            BreakerRegistry registry = registry(BreakerConfig.builder()
                    .callTimeout(Duration.ofMillis(50))
                    .faultLatency(Duration.ofMinutes(10))
                    .build());
            CircuitBreaker breaker = new BreakerCircuitBreakerFactory(
                            registry, null, null, new CallTimeouts(ignored -> pool, null))
                    .create("wholesaler");

            String answer = breaker.run(
                    () -> "live:" + ran.incrementAndGet(),
                    error -> "fallback:" + error.getClass().getSimpleName());

            assertThat(answer).isEqualTo("fallback:CallTimeoutException");
            assertThat(ran).hasValue(0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aReactiveRunSignalsTheInjectedFailureWithoutSubscribingToThePublisher() {
        BreakerRegistry registry =
                registry(BreakerConfig.builder().faultFailureRate(100).build());
        ReactiveCircuitBreaker breaker = new ReactiveBreakerCircuitBreakerFactory(registry).create("wholesaler");
        Mono<String> mono = Mono.fromCallable(() -> "live:" + ran.incrementAndGet());
        Flux<String> flux = Flux.defer(() -> Flux.just("live:" + ran.incrementAndGet()));

        assertThat(breaker.run(
                                mono,
                                error ->
                                        Mono.just("fallback:" + error.getClass().getSimpleName()))
                        .block(Duration.ofSeconds(30)))
                .isEqualTo("fallback:InjectedFaultException");
        assertThat(breaker.run(
                                flux,
                                error ->
                                        Flux.just("fallback:" + error.getClass().getSimpleName()))
                        .blockLast(Duration.ofSeconds(30)))
                .isEqualTo("fallback:InjectedFaultException");

        assertThat(ran).hasValue(0);
        assertThat(registry.breaker("wholesaler").getMetrics().failedCalls()).isEqualTo(2);
    }
}
