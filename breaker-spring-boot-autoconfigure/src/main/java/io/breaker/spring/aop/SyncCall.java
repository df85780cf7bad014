package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/** A method returning a plain value or {@code void}: the outcome is known when it returns. */
final class SyncCall extends ProtectedCall {

    SyncCall(CircuitBreaker breaker, @Nullable Fallback fallback) {
        super(breaker, fallback);
    }

    @Override
    @Nullable
    Object invoke(MethodInvocation invocation) throws Throwable {
        CircuitBreaker breaker = this.breaker;
        long permit = acquire();
        if (permit <= CircuitBreaker.NO_PERMIT) {
            return rejected(invocation.getThis(), invocation.getArguments(), permit);
        }
        long start = start();
        Object result;
        try {
            injectFaults();
            result = invocation.proceed();
        } catch (Throwable error) {
            boolean failure = failed(permit, start, error);
            return recover(invocation.getThis(), invocation.getArguments(), error, failure);
        }
        succeeded(permit, start);
        return result;
    }
}
