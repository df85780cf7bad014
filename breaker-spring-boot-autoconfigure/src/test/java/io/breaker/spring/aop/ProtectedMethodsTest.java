package io.breaker.spring.aop;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.State;
import io.breaker.spring.CircuitProtected;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The advice without a Spring context: a bare {@link ProxyFactory}, a registry on a test clock. */
class ProtectedMethodsTest {

    private final AtomicLong now = new AtomicLong();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.builder()
                    .slidingWindow(io.breaker.SlidingWindowType.COUNT_BASED, 2)
                    .minimumNumberOfCalls(2)
                    .failureRateThreshold(50)
                    .waitDurationInOpenState(Duration.ofSeconds(1))
                    .build(),
            Map.of(),
            now::get);
    private final ProtectedMethods methods = new ProtectedMethods(() -> registry);

    static class Shop {

        @CircuitProtected(name = "shop")
        public int fail() {
            throw new IllegalStateException("down");
        }

        @CircuitProtected(name = "shop")
        public Mono<Integer> never() {
            return Mono.never();
        }

        @CircuitProtected(name = "shop")
        public Flux<Integer> endless() {
            return Flux.never();
        }

        @CircuitProtected(name = "shop")
        public CompletableFuture<Integer> pending(CompletableFuture<Integer> future) {
            return future;
        }

        public int unprotected() {
            return 7;
        }
    }

    @Test
    void cancelledMonoIsNeitherSuccessNorFailureAndReturnsTheHalfOpenPermit() {
        Shop shop = proxy(new Shop());
        CircuitBreaker breaker = halfOpenReady(shop);

        Disposable probe = shop.never().subscribe();
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquirePermit())
                .as("the only permit is taken by the probe")
                .isEqualTo(CircuitBreaker.NO_PERMIT);
        probe.dispose();

        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).as("cancellation gave the permit back").isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void cancelledFluxReturnsTheHalfOpenPermit() {
        Shop shop = proxy(new Shop());
        CircuitBreaker breaker = halfOpenReady(shop);
        Disposable probe = shop.endless().subscribe();
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        probe.dispose();
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void cancelledFutureReturnsTheHalfOpenPermit() {
        Shop shop = proxy(new Shop());
        CircuitBreaker breaker = halfOpenReady(shop);
        CompletableFuture<Integer> future = new CompletableFuture<>();
        shop.pending(future);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        future.cancel(false);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void futureDurationIsMeasuredUntilCompletion() {
        Shop shop = proxy(new Shop());
        CircuitBreaker breaker = registry.breaker("shop");
        AtomicLong recorded = new AtomicLong(-1);
        breaker.addListener(new io.breaker.BreakerListener() {
            @Override
            public void onCallRecorded(CircuitBreaker source, io.breaker.CallOutcome outcome, long durationNanos) {
                recorded.set(durationNanos);
            }
        });
        CompletableFuture<Integer> future = new CompletableFuture<>();
        shop.pending(future);
        now.addAndGet(250_000_000L);
        future.complete(1);
        assertThat(recorded).hasValue(250_000_000L);
    }

    @Test
    void unannotatedMethodsAreNotAdvised() {
        Shop shop = proxy(new Shop());
        registry.breaker("shop").forceOpen();
        assertThat(shop.unprotected()).isEqualTo(7);
    }

    @Test
    void resolvesEachMethodOnceAndCreatesItsBreakerWhenPrepared() {
        methods.prepare(Shop.class);
        assertThat(registry.find("shop")).isPresent();
        assertThat(methods.breakerNames()).containsExactly("shop");
    }

    static class Catalogue {

        @CircuitProtected(name = "catalogue", fallbackMethod = "stale")
        public int price(String isbn) {
            throw new IllegalStateException("not reached while the breaker is forced open");
        }

        private int stale(String isbn, Throwable failure) {
            return 12;
        }
    }

    /**
     * A private fallback answers any number of threads at once. It is made accessible once, when the
     * method is resolved; a library that makes it accessible for each call and inaccessible after it
     * fails the threads that interleave with an {@code IllegalAccessException} (as resilience4j 2.4.0 does).
     */
    @Test
    void aPrivateFallbackAnswersManyThreadsAtOnce() throws Exception {
        Catalogue catalogue = proxy(new Catalogue());
        registry.breaker("catalogue").forceOpen();
        int threads = 4;
        int callsEach = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<Integer>> answered = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                answered.add(pool.submit(() -> {
                    start.await();
                    int fromFallback = 0;
                    for (int i = 0; i < callsEach; i++) {
                        fromFallback += catalogue.price("978-0-13-468599-1") == 12 ? 1 : 0;
                    }
                    return fromFallback;
                }));
            }
            for (Future<Integer> each : answered) {
                assertThat(each.get(60, TimeUnit.SECONDS)).isEqualTo(callsEach);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Trips the breaker through the proxy and lets the wait pass: the next call is the probe. */
    private CircuitBreaker halfOpenReady(Shop shop) {
        assertThatThrownBy(shop::fail).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(shop::fail).isInstanceOf(IllegalStateException.class);
        CircuitBreaker breaker = registry.find("shop").orElseThrow();
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        return breaker;
    }

    @SuppressWarnings("unchecked")
    static class Counter {

        @CircuitProtected(name = "counted", fallbackMethod = "answer")
        public int fail(RuntimeException error) {
            throw error;
        }

        @CircuitProtected(name = "counted", fallbackMethod = "answerLater")
        public CompletableFuture<Integer> failLater(RuntimeException error) {
            return CompletableFuture.failedFuture(error);
        }

        @CircuitProtected(name = "counted", fallbackMethod = "answerReactively")
        public Mono<Integer> failReactively(RuntimeException error) {
            return Mono.error(error);
        }

        private int answer(RuntimeException error, Throwable failure) {
            return -1;
        }

        private CompletableFuture<Integer> answerLater(RuntimeException error, Throwable failure) {
            return CompletableFuture.completedFuture(-1);
        }

        private Mono<Integer> answerReactively(RuntimeException error, Throwable failure) {
            return Mono.just(-1);
        }
    }

    @Test
    void failurePredicateIsAskedOncePerFailedCallAndDecidesTheFallback() {
        AtomicLong asked = new AtomicLong();
        BreakerRegistry counting = BreakerRegistry.of(
                BreakerConfig.builder()
                        .recordFailurePredicate(error -> {
                            asked.incrementAndGet();
                            return !"business".equals(error.getMessage());
                        })
                        .build(),
                Map.of(),
                now::get);
        ProxyFactory factory = new ProxyFactory(new Counter());
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(new ProtectedMethods(() -> counting), 0));
        Counter counter = (Counter) factory.getProxy();

        assertThat(counter.fail(new IllegalStateException("down"))).isEqualTo(-1);
        assertThat(counter.failLater(new IllegalStateException("down")).join()).isEqualTo(-1);
        assertThat(counter.failReactively(new IllegalArgumentException("down")).block())
                .isEqualTo(-1);
        assertThat(asked).as("one classification per failed call").hasValue(3);

        assertThatThrownBy(() -> counter.fail(new IllegalStateException("business")))
                .as("an ignored error is rethrown, not answered by the fallback")
                .hasMessage("business");
        assertThat(asked).hasValue(4);
        assertThat(counting.breaker("counted").getMetrics().failedCalls()).isEqualTo(3);
    }

    static class Timed {

        @CircuitProtected(name = "timed")
        public int answer() {
            return 42;
        }

        @CircuitProtected(name = "timed")
        public int fail() {
            throw new IllegalStateException("down");
        }

        @CircuitProtected(name = "timed")
        public CompletableFuture<Integer> later(CompletableFuture<Integer> future) {
            return future;
        }
    }

    @Test
    void aTimedCallOnATimeWindowReadsTheClockOnlyAtItsStartAndItsEnd() {
        AtomicLong reads = new AtomicLong();
        BreakerRegistry timeWindows = BreakerRegistry.of(
                BreakerConfig.builder()
                        .slidingWindow(io.breaker.SlidingWindowType.TIME_BASED, 10)
                        .minimumNumberOfCalls(100)
                        .slowCallDurationThreshold(Duration.ofSeconds(1))
                        .build(),
                Map.of(),
                () -> {
                    reads.incrementAndGet();
                    return now.get();
                });
        ProtectedMethods timedMethods = new ProtectedMethods(() -> timeWindows);
        ProxyFactory factory = new ProxyFactory(new Timed());
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(timedMethods, 0));
        Timed timed = (Timed) factory.getProxy();
        CompletableFuture<Integer> pending = new CompletableFuture<>();
        timed.answer(); // creates the breaker (its time window reads the clock once, for its origin)

        long before = reads.get();
        timed.answer();
        assertThatThrownBy(timed::fail).hasMessage("down");
        timed.later(pending);
        pending.complete(7);

        // Two readings per call (start and end): the end one also files the outcome in its second.
        assertThat(reads.get() - before).isEqualTo(6);
        assertThat(timeWindows.breaker("timed").getMetrics().calls()).isEqualTo(4);
        assertThat(timeWindows.breaker("timed").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void anOpenRejectionThroughTheAspectReadsTheClockOnce() {
        AtomicLong reads = new AtomicLong();
        BreakerRegistry counted = BreakerRegistry.of(
                BreakerConfig.builder()
                        .slidingWindow(io.breaker.SlidingWindowType.COUNT_BASED, 2)
                        .minimumNumberOfCalls(2)
                        .failureRateThreshold(50)
                        .waitDurationInOpenState(Duration.ofSeconds(10))
                        .build(),
                Map.of(),
                () -> {
                    reads.incrementAndGet();
                    return now.get();
                });
        ProxyFactory factory = new ProxyFactory(new Timed());
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(new ProtectedMethods(() -> counted), 0));
        Timed timed = (Timed) factory.getProxy();
        assertThatThrownBy(timed::fail).hasMessage("down");
        assertThatThrownBy(timed::fail).hasMessage("down");
        assertThat(counted.breaker("timed").getState()).isEqualTo(State.OPEN);
        now.addAndGet(Duration.ofSeconds(3).toNanos());

        long before = reads.get();
        Throwable rejection = catchThrowable(timed::answer);
        CompletableFuture<Integer> rejected = timed.later(new CompletableFuture<>());

        assertThat(reads.get() - before).as("one clock reading per rejection").isEqualTo(2);
        assertThat(rejected).isCompletedExceptionally();
        // The wait left is read from the clock when asked, not when the call is rejected.
        assertThat(rejection)
                .isInstanceOfSatisfying(
                        CircuitOpenException.class,
                        open -> assertThat(open.getRetryAfterNanos())
                                .isEqualTo(Duration.ofSeconds(7).toNanos()));
    }

    private <T> T proxy(T target) {
        ProxyFactory factory = new ProxyFactory(target);
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(methods, 0));
        return (T) factory.getProxy();
    }
}
