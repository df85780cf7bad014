package io.breaker.spring.aop;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitOpenException;
import io.breaker.SlidingWindowType;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.call.CallTimeouts;
import io.breaker.spring.observation.BreakerObservations;
import io.breaker.spring.test.BootLine;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each call of a {@code @CircuitProtected} method as a {@code breaker.call} observation, for every
 * return type and outcome: its keys (breaker, state at admission, outcome), the fallback's child
 * observation, a trip as an event; and none of it without a recording registry.
 */
@Tag(BootLine.TAG)
class CallObservationsTest {

    private static final String NAME = "circuitbreaker.name";
    private static final String STATE = "circuitbreaker.state";
    private static final String OUTCOME = "breaker.outcome";

    private final AtomicLong now = new AtomicLong();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 2)
                    .minimumNumberOfCalls(2)
                    .failureRateThreshold(50)
                    .waitDurationInOpenState(Duration.ofSeconds(30))
                    .slowCallDurationThreshold(Duration.ofMillis(100))
                    .slowCallRateThreshold(100)
                    .ignoreExceptions(IllegalArgumentException.class)
                    .build(),
            Map.of(),
            now::get);
    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final Recorder recorder = new Recorder();
    private final Shop target = new Shop();
    private final Shop shop;

    CallObservationsTest() {
        observations.observationConfig().observationHandler(recorder);
        BreakerObservations breakerObservations = new BreakerObservations(observations, null);
        registry.onBreakerCreated(breaker -> breaker.addListener(breakerObservations));
        shop = proxy(
                target,
                new ProtectedMethods(
                        () -> registry,
                        () -> RecordedResults.NONE,
                        () -> CallTimeouts.VIRTUAL_THREADS,
                        breakerObservations::ifRecording));
    }

    class Shop {

        volatile RuntimeException failure;
        volatile long takesNanos;
        volatile CompletableFuture<String> pending;

        @CircuitProtected(name = "shop", fallbackMethod = "cached")
        public String price() {
            now.addAndGet(takesNanos);
            if (failure != null) {
                throw failure;
            }
            return "12.50";
        }

        @CircuitProtected(name = "shop")
        public String priceWithoutFallback() {
            return price();
        }

        @CircuitProtected(name = "shop", fallbackMethod = "cachedLater")
        public CompletableFuture<String> priceLater() {
            return pending;
        }

        @CircuitProtected(name = "shop")
        public CompletableFuture<String> priceLaterWithoutFallback() {
            return pending;
        }

        @CircuitProtected(name = "shop", fallbackMethod = "cachedMono")
        public Mono<String> priceMono() {
            return Mono.defer(() -> failure != null ? Mono.error(failure) : Mono.just("12.50"));
        }

        @CircuitProtected(name = "shop")
        public Flux<String> prices() {
            return Flux.just("12.50", "13.00", "9.99");
        }

        String cached(CircuitOpenException rejected) {
            return "rejected";
        }

        String cached(Throwable failure) {
            return "cached";
        }

        CompletableFuture<String> cachedLater(Throwable failure) {
            return CompletableFuture.completedFuture("cached");
        }

        Mono<String> cachedMono(Throwable failure) {
            return Mono.just("cached");
        }
    }

    // ---------------------------------------------------------------- a value

    @Test
    void aSuccessIsOneCallObservationWithTheBreakersNameStateAndOutcome() {
        assertThat(shop.price()).isEqualTo("12.50");

        assertThat(observations)
                .hasSingleObservationThat()
                .hasNameEqualTo("breaker.call")
                .hasContextualNameEqualTo("breaker shop")
                .hasLowCardinalityKeyValue(NAME, "shop")
                .hasLowCardinalityKeyValue(STATE, "closed")
                .hasLowCardinalityKeyValue(OUTCOME, "success")
                .hasBeenStarted()
                .hasBeenStopped()
                .doesNotHaveError();
    }

    @Test
    void failuresTripAndTheTripIsAnEventOnTheCallThatCausedItThenRejectionsAreShortObservations() {
        target.failure = new IllegalStateException("down");

        assertThat(shop.price()).isEqualTo("cached");
        assertThat(shop.price()).isEqualTo("cached");
        assertThat(shop.price()).isEqualTo("rejected");

        assertThat(recorder.stopped("breaker.call"))
                .extracting(
                        context -> context.getLowCardinalityKeyValue(OUTCOME).getValue() + "@"
                                + context.getLowCardinalityKeyValue(STATE).getValue())
                .containsExactly("failure@closed", "failure@closed", "rejected@open");
        assertThat(recorder.events).containsExactly("breaker.call:breaker shop CLOSED -> OPEN");
        // each answer of the fallback is a child of its call, the rejection's too
        List<Observation.Context> fallbacks = recorder.stopped("breaker.fallback");
        assertThat(fallbacks).hasSize(3).allSatisfy(fallback -> {
            assertThat(fallback.getLowCardinalityKeyValue(NAME).getValue()).isEqualTo("shop");
            assertThat(fallback.getParentObservation().getContextView().getName())
                    .isEqualTo("breaker.call");
        });
        assertThat(recorder.stopped("breaker.transition")).isEmpty();
    }

    @Test
    void anIgnoredErrorKeepsItsErrorAndAnOutcomeOfItsOwn() {
        IllegalArgumentException bad = new IllegalArgumentException("bad request");
        target.failure = bad;

        assertThatThrownBy(shop::price).isSameAs(bad);

        assertThat(observations)
                .hasSingleObservationThat()
                .hasLowCardinalityKeyValue(OUTCOME, "ignored")
                .hasError(bad);
    }

    @Test
    void aCallPastTheSlowCallThresholdIsSlow() {
        target.takesNanos = Duration.ofMillis(150).toNanos();

        assertThat(shop.price()).isEqualTo("12.50");

        assertThat(observations).hasSingleObservationThat().hasLowCardinalityKeyValue(OUTCOME, "slow");
    }

    @Test
    void aRejectionWithoutFallbackIsRejectedWithItsError() {
        registry.breaker("shop").forceOpen();
        observations.clear();
        recorder.clear();

        assertThatThrownBy(shop::priceWithoutFallback).isInstanceOf(CircuitOpenException.class);

        assertThat(observations)
                .hasSingleObservationThat()
                .hasLowCardinalityKeyValue(STATE, "forced_open")
                .hasLowCardinalityKeyValue(OUTCOME, "rejected")
                .hasError();
    }

    @Test
    void aTransitionWithNoObservationCurrentIsAShortObservationOfItsOwn() {
        registry.breaker("shop").forceOpen();

        assertThat(observations)
                .hasSingleObservationThat()
                .hasNameEqualTo("breaker.transition")
                .hasContextualNameEqualTo("breaker shop CLOSED -> FORCED_OPEN")
                .hasLowCardinalityKeyValue(NAME, "shop")
                .hasLowCardinalityKeyValue(STATE, "forced_open")
                .hasLowCardinalityKeyValue("breaker.transition.from", "closed")
                .hasBeenStopped();
        assertThat(recorder.events).containsExactly("breaker.transition:breaker shop CLOSED -> FORCED_OPEN");
    }

    // ---------------------------------------------------------------- a CompletionStage

    @Test
    void aFutureIsObservedUntilItCompletesWithTheOutcomeTheBreakerRecorded() {
        target.pending = new CompletableFuture<>();

        CompletableFuture<String> price = shop.priceLater();
        assertThat(recorder.stopped("breaker.call")).isEmpty();
        target.pending.complete("12.50"); // on this thread, outside the call's scope

        assertThat(price).isCompletedWithValue("12.50");
        assertThat(observations)
                .hasSingleObservationThat()
                .hasLowCardinalityKeyValue(OUTCOME, "success")
                .hasBeenStopped();
    }

    @Test
    void aFailedFutureIsAFailureAnsweredByTheFallbackInAChildObservation() {
        target.pending = new CompletableFuture<>();

        CompletableFuture<String> price = shop.priceLater();
        target.pending.completeExceptionally(new IllegalStateException("down"));

        assertThat(price).isCompletedWithValue("cached");
        assertThat(recorder.stopped("breaker.call"))
                .singleElement()
                .satisfies(call -> assertThat(
                                call.getLowCardinalityKeyValue(OUTCOME).getValue())
                        .isEqualTo("failure"));
        assertThat(recorder.stopped("breaker.fallback"))
                .singleElement()
                .satisfies(fallback -> assertThat(
                                fallback.getParentObservation().getContextView().getName())
                        .isEqualTo("breaker.call"));
    }

    @Test
    void withoutFallbackCancellingTheFutureTheCallerGotCancelsTheMethodsAndTheCallHasNoOutcome() {
        target.pending = new CompletableFuture<>();

        CompletableFuture<String> price = shop.priceLaterWithoutFallback();
        assertThat(price).isNotSameAs(target.pending);
        price.cancel(true);

        assertThat(target.pending).isCancelled();
        assertThat(observations)
                .hasSingleObservationThat()
                .hasLowCardinalityKeyValue(OUTCOME, "cancelled")
                .hasBeenStopped();
    }

    // ---------------------------------------------------------------- Mono and Flux

    @Test
    void eachSubscriptionOfAMonoIsACallWhoseParentIsTheObservationInTheReactorContext() {
        Observation request = Observation.start("http.server.requests", observations);
        Mono<String> price =
                shop.priceMono().contextWrite(context -> context.put(BreakerObservations.REACTOR_CONTEXT_KEY, request));

        assertThat(price.block()).isEqualTo("12.50");
        assertThat(price.block()).isEqualTo("12.50");
        request.stop();

        assertThat(recorder.stopped("breaker.call")).hasSize(2).allSatisfy(call -> {
            assertThat(call.getLowCardinalityKeyValue(OUTCOME).getValue()).isEqualTo("success");
            assertThat(call.getParentObservation()).isSameAs(request);
        });
    }

    @Test
    void aFailingMonoTripsWithAnEventAndItsFallbackIsAChild() {
        target.failure = new IllegalStateException("down");

        assertThat(shop.priceMono().block()).isEqualTo("cached");
        assertThat(shop.priceMono().block()).isEqualTo("cached");
        assertThat(shop.priceMono().block()).isEqualTo("cached");

        assertThat(recorder.stopped("breaker.call"))
                .extracting(
                        context -> context.getLowCardinalityKeyValue(OUTCOME).getValue())
                .containsExactly("failure", "failure", "rejected");
        assertThat(recorder.events).containsExactly("breaker.call:breaker shop CLOSED -> OPEN");
        assertThat(recorder.stopped("breaker.fallback")).hasSize(3);
    }

    @Test
    void aFluxReadInFullOrInPartIsASuccess() {
        assertThat(shop.prices().collectList().block()).hasSize(3);
        assertThat(shop.prices().next().block()).isEqualTo("12.50");

        assertThat(recorder.stopped("breaker.call"))
                .extracting(
                        context -> context.getLowCardinalityKeyValue(OUTCOME).getValue())
                .containsExactly("success", "success");
    }

    // ---------------------------------------------------------------- no cost without a registry

    @Test
    void withoutObservationsOrWithTheNoOpRegistryTheCallIsTheOneThatRunsUnobserved() throws Exception {
        ProtectedMethods plain = new ProtectedMethods(() -> registry);
        BreakerObservations noop = new BreakerObservations(ObservationRegistry.NOOP, null);
        ProtectedMethods withNoop = new ProtectedMethods(
                () -> registry, () -> RecordedResults.NONE, () -> CallTimeouts.VIRTUAL_THREADS, noop::ifRecording);
        ProtectedMethods observed = new ProtectedMethods(
                () -> registry,
                () -> RecordedResults.NONE,
                () -> CallTimeouts.VIRTUAL_THREADS,
                new BreakerObservations(observations, null)::ifRecording);

        assertThat(noop.ifRecording()).isNull();
        for (String method : List.of("price", "priceLater", "priceMono", "prices")) {
            var declared = Shop.class.getMethod(method);
            assertThat(plain.callFor(Shop.class, declared)).isNotInstanceOf(ObservedCall.class);
            assertThat(withNoop.callFor(Shop.class, declared)).isNotInstanceOf(ObservedCall.class);
            assertThat(observed.callFor(Shop.class, declared)).isInstanceOf(ObservedCall.class);
        }
    }

    // ---------------------------------------------------------------- helpers

    @SuppressWarnings("unchecked")
    private static <T> T proxy(T target, ProtectedMethods methods) {
        ProxyFactory factory = new ProxyFactory(target);
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(methods, 0));
        return (T) factory.getProxy();
    }

    /** Records the contexts of stopped observations, in order, and every event as {@code observation:event}. */
    static final class Recorder implements ObservationHandler<Observation.Context> {

        final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onStop(Observation.Context context) {
            stopped.add(context);
        }

        @Override
        public void onEvent(Observation.Event event, Observation.Context context) {
            events.add(context.getName() + ":" + event.getContextualName());
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

        List<Observation.Context> stopped(String name) {
            return stopped.stream()
                    .filter(context -> context.getName().equals(name))
                    .toList();
        }

        void clear() {
            stopped.clear();
            events.clear();
        }
    }
}
