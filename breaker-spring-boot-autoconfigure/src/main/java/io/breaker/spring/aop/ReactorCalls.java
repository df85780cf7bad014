package io.breaker.spring.aop;

import io.breaker.CallTimeout;
import io.breaker.CallTimeoutException;
import io.breaker.CircuitBreaker;
import io.breaker.spring.ResultPredicate;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;

/**
 * Methods returning Reactor's {@code Mono} or {@code Flux}. Loaded only when reactor-core is on the
 * classpath. The rules (a permit per subscription, what a partial read or a cancel counts as) are
 * those of {@link io.breaker.spring.call.ReactorCalls}, which every integration shares; here, building
 * the publisher runs the method, and the fallback is the method's. A breaker's {@code call-timeout} is
 * Reactor's {@code timeout()} on the publisher the method returns, failing with a
 * {@link CallTimeoutException} (see {@link io.breaker.spring.call.ReactorCalls#timed}).
 */
final class ReactorCalls {

    private ReactorCalls() {}

    /** The call for a Reactor return type, or {@code null} if {@code returnType} is not Mono or Flux. */
    static @Nullable ProtectedCall forReturnType(
            Class<?> returnType,
            CircuitBreaker breaker,
            @Nullable Fallback fallback,
            @Nullable ResultPredicate recordResult,
            @Nullable CallTimeout timeout) {
        if (returnType == Mono.class) {
            return new MonoCall(breaker, fallback, recordResult, timeout);
        }
        if (returnType == Flux.class) {
            return new FluxCall(breaker, fallback, recordResult, timeout);
        }
        return null;
    }

    /**
     * Runs the method once more: each subscription is a new call. Spring's own invocations can be
     * cloned and proceeded any number of times; any other runs once.
     */
    static @Nullable Object proceed(MethodInvocation invocation) throws Throwable {
        return invocation instanceof ProxyMethodInvocation proxied
                ? proxied.invocableClone().proceed()
                : invocation.proceed();
    }

    /** The steps of a publisher-returning method: the invocation builds it, the method's fallback answers. */
    private abstract static class PublisherCall extends ProtectedCall
            implements io.breaker.spring.call.ReactorCalls.Steps<MethodInvocation> {

        /** The call timeout, or {@code null}: then the publisher is used as the method built it. */
        private final @Nullable Duration timeout;

        PublisherCall(
                CircuitBreaker breaker,
                @Nullable Fallback fallback,
                @Nullable ResultPredicate recordResult,
                @Nullable CallTimeout timeout) {
            super(breaker, fallback, recordResult);
            this.timeout = timeout == null ? null : timeout.timeout();
        }

        @Override
        public final @Nullable Object build(MethodInvocation invocation) throws Throwable {
            Duration limit = timeout;
            return limit == null
                    ? proceed(invocation)
                    : io.breaker.spring.call.ReactorCalls.timed(proceed(invocation), breaker.getName(), limit);
        }

        @Override
        public final @Nullable Object rejected(MethodInvocation invocation, long answer) throws Throwable {
            return rejected(invocation.getThis(), invocation.getArguments(), answer);
        }

        @Override
        public final @Nullable Object recover(MethodInvocation invocation, Throwable error) throws Throwable {
            return recover(invocation.getThis(), invocation.getArguments(), error, true);
        }
    }

    static final class MonoCall extends PublisherCall {

        MonoCall(
                CircuitBreaker breaker,
                @Nullable Fallback fallback,
                @Nullable ResultPredicate recordResult,
                @Nullable CallTimeout timeout) {
            super(breaker, fallback, recordResult, timeout);
        }

        @Override
        Object invoke(MethodInvocation invocation) {
            return io.breaker.spring.call.ReactorCalls.mono(this, this, invocation);
        }
    }

    static final class FluxCall extends PublisherCall {

        FluxCall(
                CircuitBreaker breaker,
                @Nullable Fallback fallback,
                @Nullable ResultPredicate recordResult,
                @Nullable CallTimeout timeout) {
            super(breaker, fallback, recordResult, timeout);
        }

        @Override
        Object invoke(MethodInvocation invocation) {
            return io.breaker.spring.call.ReactorCalls.flux(this, this, invocation);
        }
    }
}
