package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import io.breaker.spring.observation.BreakerObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxOperator;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoOperator;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The observation of a call whose result is a {@code Mono} or a {@code Flux}, one per subscription.
 * Loaded only when reactor-core is on the class path. The subscription to the call's publisher (where
 * the breaker admits or rejects it, and a rejection's fallback starts) and its cancel run in the
 * observation's scope, and so do the signals of the method's own publisher, ahead of the breaker's
 * record of them. The parent is the observation in the subscriber's Reactor context (where WebFlux and
 * WebClient put theirs), else the current one; the call's observation is in the context it passes up.
 */
final class ObservedPublishers {

    private ObservedPublishers() {}

    /** {@code built} (the call's Mono or Flux) observed per subscription; anything else as it is. */
    static @Nullable Object observe(@Nullable Object built, CircuitBreaker breaker, BreakerObservations observations) {
        if (built instanceof Mono<?> mono) {
            return new ObservedMono(mono, breaker, observations);
        }
        if (built instanceof Flux<?> flux) {
            return new ObservedFlux(flux, breaker, observations);
        }
        return built;
    }

    /**
     * {@code invocation}, whose method's publisher, each time it is built (at a subscription, in the call's
     * scope), delivers its signals in the scope of the observation current then.
     */
    static MethodInvocation scoped(MethodInvocation invocation, BreakerObservations observations) {
        return new ScopedInvocation(invocation, observations.registry());
    }

    private static void subscribe(
            Source source,
            CoreSubscriber<? super Object> actual,
            CircuitBreaker breaker,
            BreakerObservations observations) {
        Object inContext = actual.currentContext().getOrDefault(BreakerObservations.REACTOR_CONTEXT_KEY, null);
        Observation observation =
                observations.startCall(breaker, inContext instanceof Observation parent ? parent : null);
        CallSubscriber subscriber = new CallSubscriber(actual, observation, breaker);
        try (Observation.Scope scope = observation.openScope()) {
            source.subscribe(subscriber);
        }
    }

    /** Subscribes a subscriber; lets the Mono and the Flux share {@link #subscribe}. */
    @FunctionalInterface
    private interface Source {
        void subscribe(CoreSubscriber<? super Object> subscriber);
    }

    private static final class ObservedMono extends MonoOperator<Object, Object> {

        private final CircuitBreaker breaker;
        private final BreakerObservations observations;

        @SuppressWarnings("unchecked")
        ObservedMono(Mono<?> source, CircuitBreaker breaker, BreakerObservations observations) {
            super((Mono<Object>) source);
            this.breaker = breaker;
            this.observations = observations;
        }

        @Override
        public void subscribe(CoreSubscriber<? super Object> actual) {
            ObservedPublishers.subscribe(source::subscribe, actual, breaker, observations);
        }
    }

    private static final class ObservedFlux extends FluxOperator<Object, Object> {

        private final CircuitBreaker breaker;
        private final BreakerObservations observations;

        @SuppressWarnings("unchecked")
        ObservedFlux(Flux<?> source, CircuitBreaker breaker, BreakerObservations observations) {
            super((Flux<Object>) source);
            this.breaker = breaker;
            this.observations = observations;
        }

        @Override
        public void subscribe(CoreSubscriber<? super Object> actual) {
            ObservedPublishers.subscribe(source::subscribe, actual, breaker, observations);
        }
    }

    /**
     * Stops the observation at the first of completion, error and cancel; an error is recorded on it.
     * Extends AtomicBoolean (stopped) to save an allocation.
     */
    private static final class CallSubscriber extends AtomicBoolean implements CoreSubscriber<Object>, Subscription {

        private static final long serialVersionUID = 1L;

        private final transient CoreSubscriber<? super Object> actual;
        private final transient Observation observation;
        private final transient CircuitBreaker breaker;
        private transient @Nullable Subscription upstream;

        CallSubscriber(CoreSubscriber<? super Object> actual, Observation observation, CircuitBreaker breaker) {
            this.actual = actual;
            this.observation = observation;
            this.breaker = breaker;
        }

        @Override
        public Context currentContext() {
            return actual.currentContext().put(BreakerObservations.REACTOR_CONTEXT_KEY, observation);
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            upstream = subscription;
            actual.onSubscribe(this);
        }

        @Override
        public void onNext(Object value) {
            actual.onNext(value);
        }

        @Override
        public void onError(Throwable error) {
            if (compareAndSet(false, true)) {
                // A call timeout's error comes from Reactor's timer, outside the scope: classified here.
                if (BreakerObservations.lacksOutcome(observation)) {
                    BreakerObservations.outcomeFromError(observation, breaker, error);
                }
                observation.error(error);
                observation.stop();
            }
            actual.onError(error);
        }

        @Override
        public void onComplete() {
            if (compareAndSet(false, true)) {
                observation.stop();
            }
            actual.onComplete();
        }

        @Override
        public void request(long n) {
            upstream.request(n);
        }

        @Override
        public void cancel() {
            try (Observation.Scope scope = observation.openScope()) {
                upstream.cancel();
            }
            if (compareAndSet(false, true)) {
                observation.stop();
            }
        }
    }

    /** Delivers a publisher's signals in an observation's scope. */
    private static final class ScopedSubscriber implements CoreSubscriber<Object> {

        private final CoreSubscriber<? super Object> actual;
        private final Observation observation;

        ScopedSubscriber(CoreSubscriber<? super Object> actual, Observation observation) {
            this.actual = actual;
            this.observation = observation;
        }

        @Override
        public Context currentContext() {
            return actual.currentContext();
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            actual.onSubscribe(subscription);
        }

        @Override
        public void onNext(Object value) {
            try (Observation.Scope scope = observation.openScope()) {
                actual.onNext(value);
            }
        }

        @Override
        public void onError(Throwable error) {
            try (Observation.Scope scope = observation.openScope()) {
                actual.onError(error);
            }
        }

        @Override
        public void onComplete() {
            try (Observation.Scope scope = observation.openScope()) {
                actual.onComplete();
            }
        }
    }

    /** See {@link #scoped}. */
    private static final class ScopedInvocation extends DelegatingInvocation {

        private final ObservationRegistry registry;

        ScopedInvocation(MethodInvocation invocation, ObservationRegistry registry) {
            super(invocation);
            this.registry = registry;
        }

        @Override
        @SuppressWarnings("unchecked")
        public @Nullable Object proceed() throws Throwable {
            Object built = ReactorCalls.proceed(invocation);
            Observation current = registry.getCurrentObservation();
            if (current == null) {
                return built;
            }
            if (built instanceof Mono<?> mono) {
                return ((Mono<Object>) mono)
                        .transform(Operators.lift((scannable, actual) -> new ScopedSubscriber(actual, current)));
            }
            if (built instanceof Flux<?> flux) {
                return scoped((Flux<Object>) flux, current);
            }
            return built;
        }
    }

    /**
     * {@code flux}, built now (at a subscription, in the call's scope), delivering its signals in the scope
     * of the observation current now; as it is when there is none.
     */
    static Flux<Object> scopedToCurrent(Flux<Object> flux, ObservationRegistry registry) {
        Observation current = registry.getCurrentObservation();
        return current == null ? flux : scoped(flux, current);
    }

    private static Flux<Object> scoped(Flux<Object> flux, Observation observation) {
        return flux.transform(Operators.lift((scannable, actual) -> new ScopedSubscriber(actual, observation)));
    }
}
