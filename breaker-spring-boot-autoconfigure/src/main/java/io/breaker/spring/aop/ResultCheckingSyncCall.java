package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import io.breaker.spring.ResultPredicate;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * {@link SyncCall} for a breaker with {@code record-result}: a returned value the rule counts is
 * recorded as a failure and still returned as it is, without a fallback. A class of its own, so that
 * methods of breakers without the rule run {@link SyncCall}'s path, which never looks at results.
 */
final class ResultCheckingSyncCall extends ProtectedCall {

    ResultCheckingSyncCall(CircuitBreaker breaker, @Nullable Fallback fallback, ResultPredicate recordResult) {
        super(breaker, fallback, recordResult);
    }

    @Override
    @Nullable
    Object invoke(MethodInvocation invocation) throws Throwable {
        long permit = acquire();
        if (permit <= CircuitBreaker.NO_PERMIT) {
            return rejected(invocation.getThis(), invocation.getArguments(), permit);
        }
        long start = start();
        Object result;
        boolean failedResult;
        try {
            injectFaults();
            result = invocation.proceed();
            failedResult = isFailedResult(result); // a predicate that throws ends the call as the method would
        } catch (Throwable error) {
            boolean failure = failed(permit, start, error);
            return recover(invocation.getThis(), invocation.getArguments(), error, failure);
        }
        if (failedResult) {
            failedResult(permit, start, result);
        } else {
            succeeded(permit, start);
        }
        return result;
    }
}
