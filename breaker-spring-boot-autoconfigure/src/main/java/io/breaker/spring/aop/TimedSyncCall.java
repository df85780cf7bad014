package io.breaker.spring.aop;

import io.breaker.CallTimeout;
import io.breaker.CircuitBreaker;
import io.breaker.spring.ResultPredicate;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.interceptor.ExposeInvocationInterceptor;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * A method returning a plain value or {@code void} whose breaker has a {@code call-timeout}: the
 * method runs on the timeout's thread while the caller waits (see {@link CallTimeout}); past the
 * timeout the caller gets a {@link io.breaker.CallTimeoutException}, recorded as a failure and
 * answered by the fallback if it serves it, and the method's thread is interrupted. Only the caller
 * records, once: what the method does after its timeout counts nowhere. A caller interrupted while it
 * waits records nothing, gives the permit back and gets the {@link InterruptedException}. With
 * {@code record-result}, the returned value is checked as {@link ResultCheckingSyncCall} does.
 *
 * <p>A transaction cannot follow the call to another thread: a call made while the calling thread
 * has an actual transaction is refused with an {@link IllegalStateException} before it takes a
 * permit (methods annotated {@code @Transactional} are refused at start-up already).
 */
final class TimedSyncCall extends ProtectedCall {

    private static final boolean SPRING_TX_PRESENT = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager",
            TimedSyncCall.class.getClassLoader());

    private final CallTimeout timeout;
    private final String method;

    TimedSyncCall(
            CircuitBreaker breaker,
            @Nullable Fallback fallback,
            @Nullable ResultPredicate recordResult,
            CallTimeout timeout,
            String method) {
        super(breaker, fallback, recordResult);
        this.timeout = timeout;
        this.method = method;
    }

    @Override
    @Nullable
    Object invoke(MethodInvocation invocation) throws Throwable {
        if (SPRING_TX_PRESENT && TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException(method + " was called inside a transaction, and its breaker '"
                    + breaker.getName() + "' has a call-timeout, which runs it on another thread where the"
                    + " transaction is not: call it outside the transaction, or remove call-timeout and rely on"
                    + " the client's own timeouts");
        }
        long permit = acquire();
        if (permit <= CircuitBreaker.NO_PERMIT) {
            return rejected(invocation.getThis(), invocation.getArguments(), permit);
        }
        long start = start();
        Object result;
        boolean failedResult;
        try {
            result = timeout.run(() -> {
                try {
                    // Exposes the invocation on the timed thread too, for AspectJ-style advice further in.
                    injectFaults(); // on the timed thread: the call timeout cuts an injected latency too
                    return ExposeInvocationInterceptor.INSTANCE.invoke(invocation);
                } catch (Throwable error) {
                    throw ProtectedMethods.<Exception>sneaky(error);
                }
            });
            failedResult = isFailedResult(result);
        } catch (Throwable error) {
            if (CallTimeout.callerInterrupted(error)) {
                released(permit);
                throw error;
            }
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
