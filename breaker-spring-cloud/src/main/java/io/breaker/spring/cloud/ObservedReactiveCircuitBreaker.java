package io.breaker.spring.cloud;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.observation.CircuitBreakerObservationContext;
import org.springframework.cloud.client.circuitbreaker.observation.CircuitBreakerObservationContext.Type;
import org.springframework.cloud.client.circuitbreaker.observation.CircuitBreakerObservationConvention;
import org.springframework.cloud.client.circuitbreaker.observation.DefaultCircuitBreakerObservationConvention;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import java.util.function.Function;

/**
 * A {@link ReactiveCircuitBreaker} whose runs are observed with the names of Spring Cloud's blocking
 * {@code ObservedCircuitBreaker}: Spring Cloud has no reactive counterpart, so this one gives each
 * subscription the same observations. The publisher, once the breaker lets it run, is one observation
 * of type {@code supplier} (contextual name {@code circuit-breaker}); the fallback's publisher, when it
 * answers, one of type {@code function} ({@code circuit-breaker fallback}). Each starts at the
 * subscription and stops at completion, error or cancel; an error is recorded on it. The parent is
 * the observation in the subscriber's Reactor context (Spring's WebFlux and WebClient put theirs
 * there), else the registry's current one.
 */
final class ObservedReactiveCircuitBreaker implements ReactiveCircuitBreaker {

    /** The Reactor context key of the current observation (Micrometer's context-propagation key). */
    static final String OBSERVATION_KEY = "micrometer.observation";

    private static final String SUPPLIER = "circuit-breaker";
    private static final String FALLBACK = "circuit-breaker fallback";

    private final ReactiveCircuitBreaker delegate;
    private final ObservationRegistry registry;
    private final @Nullable CircuitBreakerObservationConvention convention;

    ObservedReactiveCircuitBreaker(
            ReactiveCircuitBreaker delegate,
            ObservationRegistry registry,
            @Nullable CircuitBreakerObservationConvention convention) {
        this.delegate = delegate;
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public <T> Mono<T> run(Mono<T> toRun, Function<Throwable, Mono<T>> fallback) {
        return delegate.run(
                observed(toRun, Type.SUPPLIER, SUPPLIER),
                error -> observed(Mono.defer(() -> fallback.apply(error)), Type.FUNCTION, FALLBACK));
    }

    /** Without a fallback, as Spring Cloud's blocking one: only the publisher is observed. */
    @Override
    public <T> Mono<T> run(Mono<T> toRun) {
        return delegate.run(observed(toRun, Type.SUPPLIER, SUPPLIER));
    }

    @Override
    public <T> Flux<T> run(Flux<T> toRun, Function<Throwable, Flux<T>> fallback) {
        return delegate.run(
                observed(toRun, Type.SUPPLIER, SUPPLIER),
                error -> observed(Flux.defer(() -> fallback.apply(error)), Type.FUNCTION, FALLBACK));
    }

    @Override
    public <T> Flux<T> run(Flux<T> toRun) {
        return delegate.run(observed(toRun, Type.SUPPLIER, SUPPLIER));
    }

    private <T> Mono<T> observed(Mono<T> source, Type type, String contextualName) {
        return Mono.deferContextual(context -> {
            Observation observation = start(context, type, contextualName);
            return source.doOnError(observation::error)
                    .doFinally(signal -> observation.stop())
                    .contextWrite(inner -> inner.put(OBSERVATION_KEY, observation));
        });
    }

    private <T> Flux<T> observed(Flux<T> source, Type type, String contextualName) {
        return Flux.deferContextual(context -> {
            Observation observation = start(context, type, contextualName);
            return source.doOnError(observation::error)
                    .doFinally(signal -> observation.stop())
                    .contextWrite(inner -> inner.put(OBSERVATION_KEY, observation));
        });
    }

    private Observation start(ContextView context, Type type, String contextualName) {
        Object inContext = context.getOrDefault(OBSERVATION_KEY, null);
        Observation parent =
                inContext instanceof Observation observation ? observation : registry.getCurrentObservation();
        return Observation.createNotStarted(
                        convention,
                        DefaultCircuitBreakerObservationConvention.INSTANCE,
                        () -> new CircuitBreakerObservationContext(type),
                        registry)
                .parentObservation(parent)
                .contextualName(contextualName)
                .start();
    }

    @Override
    public String toString() {
        return "Observed" + delegate;
    }
}
