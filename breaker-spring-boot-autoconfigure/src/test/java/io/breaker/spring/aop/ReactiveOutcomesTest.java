package io.breaker.spring.aop;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.metrics.BreakerMeterBinder;
import io.breaker.spring.test.BootLine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Mono and Flux methods consumed the ways users consume them: partly ({@code next()},
 * {@code take(n)}, {@code blockFirst()}), behind a {@code timeout()}, cancelled; and the one rule
 * shared with every return type: a rejected call does not run the method, an exception the method
 * throws is classified and may get the fallback.
 */
@Tag(BootLine.TAG)
class ReactiveOutcomesTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration SLOW = Duration.ofMillis(100);

    private final AtomicLong now = new AtomicLong();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 20)
                    .minimumNumberOfCalls(10)
                    .failureRateThreshold(50)
                    .waitDurationInOpenState(WAIT)
                    .slowCallDurationThreshold(SLOW)
                    .slowCallRateThreshold(50)
                    .ignoreExceptions(IllegalArgumentException.class)
                    .build(),
            Map.of(),
            now::get);
    /** The target: a CGLIB proxy's own fields are not the target's, so the test reads and writes these. */
    private final Feed target = new Feed();

    private final Feed feed = proxy(target, registry);
    private final CircuitBreaker breaker = registry.breaker("feed");

    static class Feed {

        final AtomicInteger bodies = new AtomicInteger();
        final AtomicInteger subscriptions = new AtomicInteger();
        volatile RuntimeException failure;

        @CircuitProtected(name = "feed")
        public Flux<String> reviews() {
            bodies.incrementAndGet();
            return Flux.defer(() -> {
                subscriptions.incrementAndGet();
                return failure != null ? Flux.error(failure) : Flux.just("great", "long", "sandy");
            });
        }

        @CircuitProtected(name = "feed")
        public Mono<String> rating() {
            bodies.incrementAndGet();
            return Mono.defer(() -> failure != null ? Mono.error(failure) : Mono.just("4 stars"));
        }

        @CircuitProtected(name = "feed")
        public Mono<String> hangingRating() {
            return Mono.never();
        }

        @CircuitProtected(name = "feed")
        public Flux<String> hangingReviews() {
            return Flux.never();
        }

        @CircuitProtected(name = "feed", fallbackMethod = "noRating")
        public Mono<String> ratingBuiltBadly(RuntimeException thrown) {
            bodies.incrementAndGet();
            throw thrown; // thrown while the publisher is being built
        }

        @CircuitProtected(name = "feed", fallbackMethod = "noReviews")
        public Flux<String> reviewsBuiltBadly(RuntimeException thrown) {
            bodies.incrementAndGet();
            throw thrown;
        }

        @CircuitProtected(name = "feed", fallbackMethod = "noReviews")
        public Flux<String> reviewsWithFallback(RuntimeException thrown) {
            bodies.incrementAndGet();
            return Flux.just("ok");
        }

        private Mono<String> noRating(RuntimeException thrown, Throwable failure) {
            return Mono.just("fallback:" + failure.getClass().getSimpleName());
        }

        private Flux<String> noReviews(RuntimeException thrown, Throwable failure) {
            return Flux.just("fallback:" + failure.getClass().getSimpleName());
        }
    }

    // ------------------------------------------------------------------ 2. partial reads count

    @Test
    void aFluxReadWithNextCountsAsSuccess() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(feed.reviews().next().block()).isEqualTo("great");
        }

        assertThat(breaker.getMetrics().calls()).isEqualTo(20);
        assertThat(breaker.getMetrics().failedCalls()).isZero();
    }

    @Test
    void takeAndBlockFirstCountAsSuccessesSoFailuresAloneDoNotTrip() {
        for (int i = 0; i < 10; i++) {
            target.failure = null;
            assertThat(feed.reviews().take(2).collectList().block()).containsExactly("great", "long");
            assertThat(feed.reviews().blockFirst()).isEqualTo("great");
            target.failure = new IllegalStateException("down");
            assertThatThrownBy(() -> feed.reviews().blockLast()).hasMessage("down");
        }

        assertThat(breaker.getMetrics().calls()).isEqualTo(20);
        assertThat(breaker.getState()).as("10 failures among 30 calls").isEqualTo(State.CLOSED);
    }

    @Test
    void aProbeReadWithNextClosesTheBreaker() {
        trip();
        now.addAndGet(WAIT.toNanos());
        target.failure = null;

        assertThat(feed.reviews().next().block()).isEqualTo("great");

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aFluxThatFailsAfterItsFirstElementIsAFailure() {
        RuntimeException down = new IllegalStateException("down mid-stream");

        assertThatThrownBy(() -> proxy(new MidStream(down), registry).reviews().blockLast())
                .isSameAs(down);

        assertThat(breaker.getMetrics().calls()).isEqualTo(1);
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(1);
    }

    static class MidStream {

        private final RuntimeException error;

        MidStream(RuntimeException error) {
            this.error = error;
        }

        @CircuitProtected(name = "feed")
        public Flux<String> reviews() {
            return Flux.concat(Flux.just("first"), Flux.error(error));
        }
    }

    @Test
    void aCancelBeforeAnyElementCountsNeitherWay() {
        Disposable quick = feed.hangingReviews().subscribe();
        now.addAndGet(SLOW.toNanos() - 1);
        quick.dispose();
        Disposable quickMono = feed.hangingRating().subscribe();
        quickMono.dispose();

        assertThat(breaker.getMetrics().calls()).isZero();
    }

    @Test
    void aCancelAfterTheSlowCallThresholdCountsAsSlow() {
        Disposable hung = feed.hangingReviews().subscribe();
        Disposable hungMono = feed.hangingRating().subscribe();
        now.addAndGet(SLOW.toNanos());
        hung.dispose();
        hungMono.dispose();

        assertThat(breaker.getMetrics().calls()).isEqualTo(2);
        assertThat(breaker.getMetrics().slowCalls()).isEqualTo(2);
    }

    @Test
    void aHungDependencyBehindTheCallersTimeoutTripsTheBreaker() {
        BreakerRegistry realTime = BreakerRegistry.of(
                BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                        .minimumNumberOfCalls(4)
                        .slowCallDurationThreshold(Duration.ofMillis(20))
                        .slowCallRateThreshold(100)
                        .build(),
                Map.of());
        Feed hanging = proxy(new Feed(), realTime);

        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(() -> hanging.hangingRating()
                            .timeout(Duration.ofMillis(40))
                            .block())
                    .hasCauseInstanceOf(TimeoutException.class);
        }

        assertThat(realTime.breaker("feed").getState()).isEqualTo(State.OPEN);
        assertThat(realTime.breaker("feed").getLastFailureType()).isNull();
    }

    @Test
    void aHungCallCancelledByTheCallersTimeoutIsMeteredAsSlowCancelledNotAsASuccess() {
        BreakerRegistry realTime = BreakerRegistry.of(
                BreakerConfig.builder()
                        .slowCallDurationThreshold(Duration.ofMillis(20))
                        .build(),
                Map.of());
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new BreakerMeterBinder(realTime).bindTo(meters);
        Feed hanging = proxy(new Feed(), realTime);

        assertThatThrownBy(() ->
                        hanging.hangingRating().timeout(Duration.ofMillis(40)).block())
                .hasCauseInstanceOf(TimeoutException.class);

        assertThat(meters.find("breaker.calls").tag("outcome", "slow_cancelled").timer())
                .as("the cancelled call's timer")
                .isNotNull()
                .satisfies(timer -> assertThat(timer.count()).isEqualTo(1));
        assertThat(meters.find("breaker.calls").tag("outcome", "slow_success").timers())
                .allSatisfy(timer -> assertThat(timer.count()).isZero());
        assertThat(realTime.breaker("feed").getMetrics().slowCalls())
                .as("still a slow call")
                .isEqualTo(1);
    }

    // ------------------------------------------------------------------ 3. one rule for every return type

    @Test
    void aRejectedCallDoesNotRunTheMethod() {
        breaker.forceOpen();

        assertThatThrownBy(() -> feed.reviews().blockFirst()).isInstanceOf(CircuitOpenException.class);
        assertThatThrownBy(() -> feed.rating().block()).isInstanceOf(CircuitOpenException.class);
        assertThat(feed.reviewsWithFallback(null).blockFirst()).isEqualTo("fallback:CircuitOpenException");

        assertThat(target.bodies).as("method bodies run while rejected").hasValue(0);
    }

    @Test
    void anExceptionThrownWhileBuildingThePublisherIsRecordedAndGetsTheFallback() {
        Mono<String> rating = feed.ratingBuiltBadly(new IllegalStateException("no connection"));
        Flux<String> reviews = feed.reviewsBuiltBadly(new IllegalStateException("no connection"));

        assertThat(rating.block()).isEqualTo("fallback:IllegalStateException");
        assertThat(reviews.blockFirst()).isEqualTo("fallback:IllegalStateException");
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(2);
    }

    @Test
    void anIgnoredExceptionThrownWhileBuildingIsNeitherCountedNorAnsweredByTheFallback() {
        IllegalArgumentException bug = new IllegalArgumentException("our own bug");

        assertThatThrownBy(() -> feed.ratingBuiltBadly(bug).block()).isSameAs(bug);

        assertThat(breaker.getMetrics().calls()).isZero();
    }

    @Test
    void eachSubscriptionIsOneCallThroughTheBreaker() {
        Flux<String> reviews = feed.reviews();
        reviews.blockLast();
        reviews.blockLast();

        assertThat(breaker.getMetrics().calls()).isEqualTo(2);
        assertThat(target.subscriptions).hasValue(2);
    }

    private void trip() {
        target.failure = new IllegalStateException("down");
        for (int i = 0; i < 10; i++) {
            feed.reviews().onErrorResume(error -> Flux.empty()).blockLast();
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(T target, BreakerRegistry registry) {
        ProxyFactory factory = new ProxyFactory(target);
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(new ProtectedMethods(() -> registry), 0));
        return (T) factory.getProxy();
    }
}
