package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CallTimeoutException;
import io.breaker.CircuitOpenException;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.circuitbreaker.NoFallbackAvailableException;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code run(Mono, fallback)} and {@code run(Flux, fallback)} without Spring: the aspect's reactive rules. */
class ReactiveCloudCircuitBreakerTest {

    private final TestClock clock = new TestClock();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.ofDefaults(),
            Map.of(
                    "reviews",
                    BreakerConfig.builder()
                            .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                            .minimumNumberOfCalls(4)
                            .failureRateThreshold(50)
                            .waitDurationInOpenState(Duration.ofSeconds(10))
                            .slowCallDurationThreshold(Duration.ofSeconds(2))
                            .ignoreExceptions(IllegalArgumentException.class)
                            .build()),
            clock);
    private final ReactiveCircuitBreaker breaker = new ReactiveBreakerCircuitBreakerFactory(registry).create("reviews");
    private final AtomicInteger subscriptions = new AtomicInteger();

    private io.breaker.CircuitBreaker core() {
        return registry.breaker("reviews");
    }

    private Mono<String> failingMono() {
        return Mono.<String>error(new IOException("down")).doOnSubscribe(s -> subscriptions.incrementAndGet());
    }

    @Test
    void aMonoThatEmitsIsASuccess() {
        assertThat(breaker.run(Mono.just("4 stars"), error -> Mono.just("fallback"))
                        .block())
                .isEqualTo("4 stars");
        assertThat(core().getMetrics().calls()).isEqualTo(1);
        assertThat(core().getMetrics().failedCalls()).isZero();
    }

    @Test
    void anErrorIsCountedAndAnsweredByTheFallback() {
        assertThat(breaker.run(
                                failingMono(),
                                error ->
                                        Mono.just("fallback:" + error.getClass().getSimpleName()))
                        .block())
                .isEqualTo("fallback:IOException");
        assertThat(core().getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void anIgnoredErrorIsSignalledUnchangedAndNotCounted() {
        IllegalArgumentException answer = new IllegalArgumentException("no such book");
        assertThatThrownBy(() -> breaker.run(Mono.<String>error(answer), error -> Mono.just("fallback"))
                        .block())
                .isSameAs(answer);
        assertThat(core().getMetrics().calls()).isZero();
    }

    @Test
    void eachSubscriptionIsACallAndARejectionGoesToTheFallbackWithoutSubscribing() {
        Mono<String> guarded =
                breaker.run(failingMono(), error -> Mono.just(error.getClass().getSimpleName()));
        for (int i = 0; i < 4; i++) {
            assertThat(guarded.block()).isEqualTo("IOException");
        }
        assertThat(core().getState()).isEqualTo(State.OPEN);
        assertThat(guarded.block()).isEqualTo("CircuitOpenException");
        assertThat(subscriptions.get()).isEqualTo(4);
    }

    @Test
    void withoutAFallbackTheRejectionComesAsNoFallbackAvailableException() {
        core().forceOpen();
        assertThatThrownBy(() -> breaker.run(Mono.just("x")).block())
                .isInstanceOf(NoFallbackAvailableException.class)
                .hasCauseInstanceOf(CircuitOpenException.class);
        assertThatThrownBy(() -> breaker.run(Flux.just("x")).blockFirst())
                .isInstanceOf(NoFallbackAvailableException.class)
                .hasCauseInstanceOf(CircuitOpenException.class);
    }

    @Test
    void aFluxReadInPartIsASuccess() {
        Flux<String> reviews = breaker.run(Flux.just("good", "fine", "great"), error -> Flux.just("fallback"));
        assertThat(reviews.next().block()).isEqualTo("good");
        assertThat(reviews.take(2).collectList().block()).containsExactly("good", "fine");
        assertThat(core().getMetrics().calls()).isEqualTo(2);
        assertThat(core().getMetrics().failedCalls()).isZero();
    }

    @Test
    void aFluxFailingAfterElementsIsAFailure() {
        Flux<String> reviews = breaker.run(
                Flux.just("good").concatWith(Flux.error(new IOException("cut"))), error -> Flux.just("fallback"));
        assertThat(reviews.collectList().block()).containsExactly("good", "fallback");
        assertThat(core().getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void aCancelBeforeAnyElementCountsNeitherWayAndGivesTheProbePermitBack() {
        for (int i = 0; i < 4; i++) {
            breaker.run(failingMono(), error -> Mono.just("fallback")).block();
        }
        clock.advance(Duration.ofSeconds(10));
        // the probe is cancelled at once: it counts neither way, and the next call is a probe again
        breaker.run(Mono.<String>never(), error -> Mono.just("fallback"))
                .subscribe()
                .dispose();
        assertThat(core().getState()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.run(Mono.just("ok"), error -> Mono.just("fallback")).block())
                .isEqualTo("ok");
        assertThat(core().getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aCancelAfterTheSlowCallThresholdIsASlowCall() {
        breaker.run(Mono.<String>never(), error -> Mono.just("fallback"))
                .doOnSubscribe(s -> clock.advance(Duration.ofSeconds(3)))
                .subscribe()
                .dispose();
        assertThat(core().getMetrics().slowCalls()).isEqualTo(1);
    }

    @Test
    void noTimeoutCutsACall() {
        Mono<String> slow = Mono.fromSupplier(() -> {
            clock.advance(Duration.ofMinutes(5));
            return "late but whole";
        });
        assertThat(breaker.run(slow, error -> Mono.just("fallback")).block()).isEqualTo("late but whole");
    }

    @Test
    void aBreakersCallTimeoutCutsAMonoAndAFluxAndCountsAFailure() {
        BreakerRegistry timed = BreakerRegistry.of(
                BreakerConfig.ofDefaults(),
                Map.of(
                        "quotes",
                        BreakerConfig.builder()
                                .callTimeout(Duration.ofMillis(50))
                                .build()));
        ReactiveCircuitBreaker quotes = new ReactiveBreakerCircuitBreakerFactory(timed).create("quotes");
        AtomicInteger cancelled = new AtomicInteger();

        Throwable monoAnswer = quotes.run(
                        Mono.<String>never().doOnCancel(cancelled::incrementAndGet),
                        error -> Mono.just(error.getClass().getSimpleName()))
                .map(name -> (Throwable) new IllegalStateException(name))
                .block(Duration.ofSeconds(10));
        String fluxAnswer = quotes.run(
                        Flux.<String>never().doOnCancel(cancelled::incrementAndGet),
                        error -> Flux.just(error instanceof CallTimeoutException ? "timed out" : error.toString()))
                .blockFirst(Duration.ofSeconds(10));

        assertThat(monoAnswer).hasMessage("CallTimeoutException");
        assertThat(fluxAnswer).isEqualTo("timed out");
        assertThat(cancelled).as("the late publishers are cancelled").hasValue(2);
        assertThat(timed.breaker("quotes").getMetrics().failedCalls()).isEqualTo(2);
    }
}
