package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import io.breaker.spring.ResultPredicate;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.Job;
import kotlinx.coroutines.flow.Flow;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.CoroutinesUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
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
 * <p>A plain method returning {@code Flow}: the flow is read as a Flux (each collection is a call, a
 * partial read such as {@code take(1)} counts as the Flux rule says) and handed back as a Flow; its
 * fallback returns a Flow as well.
 */
final class KotlinCalls {

    private static final ReactiveAdapter FLOW_ADAPTER = flowAdapter();

    private KotlinCalls() {}

    /** The call for {@code method}, a suspend fun or a plain method returning {@code Flow}. */
    static ProtectedCall forMethod(
            Method method,
            CircuitBreaker breaker,
            @Nullable Fallback fallback,
            @Nullable ResultPredicate recordResult) {
        if (KotlinDetector.isSuspendingFunction(method)) {
            // Spring's proxy reads the declared type the same way to choose between awaiting and a Flow.
            boolean flow = isFlow(new MethodParameter(method, -1).getParameterType());
            return new SuspendCall(breaker, fallback, recordResult, flow);
        }
        return new FlowCall(breaker, fallback, recordResult);
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

    private static Flux<Object> toFlux(@Nullable Object answer) {
        if (answer == null) {
            return Flux.empty();
        }
        @SuppressWarnings("unchecked")
        Publisher<Object> publisher = answer instanceof Publisher<?>
                ? (Publisher<Object>) answer
                : (Publisher<Object>) FLOW_ADAPTER.toPublisher(answer);
        return Flux.from(publisher);
    }

    @SuppressWarnings("unchecked")
    private static Mono<Object> toMono(@Nullable Object answer) {
        return answer == null ? Mono.empty() : Mono.from((Publisher<Object>) answer);
    }

    private static ReactiveAdapter flowAdapter() {
        ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(Flow.class);
        if (adapter == null) {
            throw new IllegalStateException("Spring has no reactive adapter for kotlinx.coroutines.flow.Flow;"
                    + " add org.jetbrains.kotlinx:kotlinx-coroutines-reactor to the class path");
        }
        return adapter;
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

    /** A plain method returning {@code Flow}: read as a Flux, handed back as a Flow. */
    static final class FlowCall extends ProtectedCall
            implements io.breaker.spring.call.ReactorCalls.Steps<MethodInvocation> {

        FlowCall(CircuitBreaker breaker, @Nullable Fallback fallback, @Nullable ResultPredicate recordResult) {
            super(breaker, fallback, recordResult);
        }

        @Override
        Object invoke(MethodInvocation invocation) {
            return FLOW_ADAPTER.fromPublisher(io.breaker.spring.call.ReactorCalls.flux(this, this, invocation));
        }

        @Override
        public Object build(MethodInvocation invocation) throws Throwable {
            return toFlux(ReactorCalls.proceed(invocation));
        }

        @Override
        public Object rejected(MethodInvocation invocation, long answer) throws Throwable {
            return toFlux(rejected(invocation.getThis(), invocation.getArguments(), answer));
        }

        @Override
        public Object recover(MethodInvocation invocation, Throwable error) throws Throwable {
            return toFlux(recover(invocation.getThis(), invocation.getArguments(), error, true));
        }
    }
}
