package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.observation.BreakerObservations;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.Job;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowCollector;
import kotlinx.coroutines.reactive.ReactiveFlowKt;
import kotlinx.coroutines.reactor.ReactorFlowKt;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.CoroutinesUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.lang.reflect.Method;

/**
 * Kotlin's {@code suspend fun} and methods returning {@code Flow}, under the rules of Mono and Flux
 * ({@link io.breaker.spring.call.ReactorCalls}). Loaded only when kotlin-reflect and
 * kotlinx-coroutines-reactor are on the class path ({@link ProtectedMethods} checks first).
 *
 * <p>A suspend fun: Spring's AOP runs it as a publisher (a {@code Mono}, or a {@code Flux} when it
 * returns {@code Flow}) in the caller's coroutine context without its {@code Job}, and awaits what the
 * advice returns in the caller's coroutine. So the call is the Mono rule as it is: a cancelled
 * coroutine ({@code withTimeout}, {@code job.cancel()}) cancels the subscription, which counts as a
 * Mono's cancel does (neither way, or slow once past the slow-call threshold); the fallback, a suspend
 * fun too, runs the same way in the same context.
 *
 * <p>A plain method returning {@code Flow}: each collection of the flow it returns is a call, which runs
 * the method and reads its flow as a Flux in the collector's coroutine context (a partial read such as
 * {@code take(1)} counts as the Flux rule says); its fallback returns a Flow as well.
 */
final class KotlinCalls {

    private KotlinCalls() {}

    /** The call for {@code method}, a suspend fun or a plain method returning {@code Flow}. */
    static ProtectedCall forMethod(
            Method method,
            CircuitBreaker breaker,
            @Nullable Fallback fallback,
            @Nullable ResultPredicate recordResult,
            @Nullable BreakerObservations observations) {
        if (KotlinDetector.isSuspendingFunction(method)) {
            // Spring's proxy reads the declared type the same way to choose between awaiting and a Flow.
            boolean flow = isFlow(new MethodParameter(method, -1).getParameterType());
            return new SuspendCall(breaker, fallback, recordResult, flow);
        }
        return new FlowCall(breaker, fallback, recordResult, observations);
    }

    /** Whether {@code type} is {@code Flow} itself, as Spring's proxy checks it. */
    static boolean isFlow(Class<?> type) {
        return type == Flow.class;
    }

    /**
     * Calls a suspend fun by reflection in the coroutine context of the continuation that ends
     * {@code arguments} (without its {@code Job}, as Spring's AOP does), as a Mono, or a Flux when it
     * returns {@code Flow}.
     */
    static Publisher<?> invokeSuspending(Method method, @Nullable Object target, @Nullable Object[] arguments) {
        Continuation<?> continuation = (Continuation<?>) arguments[arguments.length - 1];
        CoroutineContext context = continuation.getContext().minusKey(Job.Key);
        return CoroutinesUtils.invokeSuspendingFunction(context, method, target, arguments);
    }

    @SuppressWarnings("unchecked")
    private static Flux<Object> toFlux(@Nullable Object answer) {
        return answer == null ? Flux.empty() : Flux.from((Publisher<Object>) answer);
    }

    @SuppressWarnings("unchecked")
    private static Mono<Object> toMono(@Nullable Object answer) {
        return answer == null ? Mono.empty() : Mono.from((Publisher<Object>) answer);
    }

    /** A suspend fun: the advice returns the publisher that Spring's proxy awaits (or reads as a Flow). */
    static final class SuspendCall extends ProtectedCall
            implements io.breaker.spring.call.ReactorCalls.Steps<MethodInvocation> {

        private final boolean flow;

        SuspendCall(
                CircuitBreaker breaker,
                @Nullable Fallback fallback,
                @Nullable ResultPredicate recordResult,
                boolean flow) {
            super(breaker, fallback, recordResult);
            this.flow = flow;
        }

        @Override
        Object invoke(MethodInvocation invocation) {
            return flow
                    ? io.breaker.spring.call.ReactorCalls.flux(this, this, invocation)
                    : io.breaker.spring.call.ReactorCalls.mono(this, this, invocation);
        }

        @Override
        public Object build(MethodInvocation invocation) throws Throwable {
            return answer(ReactorCalls.proceed(invocation));
        }

        @Override
        public Object rejected(MethodInvocation invocation, long answer) throws Throwable {
            return answer(rejected(invocation.getThis(), invocation.getArguments(), answer));
        }

        @Override
        public Object recover(MethodInvocation invocation, Throwable error) throws Throwable {
            return answer(recover(invocation.getThis(), invocation.getArguments(), error, true));
        }

        private Object answer(@Nullable Object publisher) {
            return flow ? toFlux(publisher) : toMono(publisher);
        }
    }

    /**
     * A plain method returning {@code Flow}: the caller gets a {@link ProtectedFlow}, whose every
     * collection is a call read as a Flux in the collector's coroutine context.
     */
    static final class FlowCall extends ProtectedCall
            implements io.breaker.spring.call.ReactorCalls.Steps<FlowCollection> {

        private final @Nullable BreakerObservations observations;

        FlowCall(
                CircuitBreaker breaker,
                @Nullable Fallback fallback,
                @Nullable ResultPredicate recordResult,
                @Nullable BreakerObservations observations) {
            super(breaker, fallback, recordResult);
            this.observations = observations;
        }

        @Override
        Object invoke(MethodInvocation invocation) {
            return new ProtectedFlow(this, invocation);
        }

        /** The collection's Flux, observed per subscription when the application observes calls. */
        @SuppressWarnings("unchecked")
        Flux<Object> observed(Flux<Object> flux) {
            return observations == null ? flux : (Flux<Object>) ObservedPublishers.observe(flux, breaker, observations);
        }

        @Override
        public Object build(FlowCollection collection) throws Throwable {
            Flux<Object> flux = collection.read(ReactorCalls.proceed(collection.invocation()));
            // Observed: the method's signals reach the breaker in the call's scope, which records the outcome there.
            return observations == null ? flux : ObservedPublishers.scopedToCurrent(flux, observations.registry());
        }

        @Override
        public Object rejected(FlowCollection collection, long answer) throws Throwable {
            MethodInvocation invocation = collection.invocation();
            return collection.read(rejected(invocation.getThis(), invocation.getArguments(), answer));
        }

        @Override
        public Object recover(FlowCollection collection, Throwable error) throws Throwable {
            MethodInvocation invocation = collection.invocation();
            return collection.read(recover(invocation.getThis(), invocation.getArguments(), error, true));
        }
    }

    /** One collection of a protected flow: the invocation to run, and the collector's context to run it in. */
    record FlowCollection(MethodInvocation invocation, CoroutineContext context) {

        /** The flow the method (or its fallback) returned, as a Flux collected in the collector's context. */
        @SuppressWarnings("unchecked")
        Flux<Object> read(@Nullable Object flow) {
            return flow == null ? Flux.empty() : ReactorFlowKt.asFlux((Flow<Object>) flow, context);
        }
    }

    /**
     * The flow a protected method returns. Collecting it takes the collector's coroutine context
     * (without its {@code Job}, which the Flux's own cancellation stands for), so the method's flow
     * runs with the collector's dispatcher and context elements, as it would unprotected. It only hands
     * each collection to a flow kotlinx-coroutines built ({@code asFlow}), which emits to the collector
     * and so keeps Flow's rules on context and exceptions.
     */
    static final class ProtectedFlow implements Flow<Object> {

        private final FlowCall call;
        private final MethodInvocation invocation;

        ProtectedFlow(FlowCall call, MethodInvocation invocation) {
            this.call = call;
            this.invocation = invocation;
        }

        @Override
        public @Nullable Object collect(
                FlowCollector<? super Object> collector, Continuation<? super Unit> continuation) {
            FlowCollection collection =
                    new FlowCollection(invocation, continuation.getContext().minusKey(Job.Key));
            Flux<Object> flux = call.observed(io.breaker.spring.call.ReactorCalls.flux(call, call, collection));
            // A tail call: the continuation goes on to the bridge's collect, which suspends or returns for us.
            return ReactiveFlowKt.asFlow(flux).collect(collector, continuation);
        }
    }
}
