package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.call.BreakerCall;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;

/**
 * Everything a call to one protected method needs, resolved once: the breaker's side of the call
 * ({@link BreakerCall}: permit, timing, outcome rules), the fallback, and the handling of its return
 * type (one subclass per kind). The call path reads only final fields.
 */
abstract class ProtectedCall extends BreakerCall {

    /** The fallback, or {@code null}. */
    final @Nullable Fallback fallback;
    /** The overload a rejection goes to, or {@code null}: then the caller gets the rejection. */
    final @Nullable Method rejectionFallback;

    private final boolean rejectionFallbackTakesException;

    /** @param breaker {@code null} only for a call that does not go through a breaker */
    ProtectedCall(@Nullable CircuitBreaker breaker, @Nullable Fallback fallback) {
        this(breaker, fallback, null);
    }

    /**
     * @param breaker      {@code null} only for a call that does not go through a breaker
     * @param recordResult which results count as failures ({@code record-result}), or {@code null}
     */
    ProtectedCall(
            @Nullable CircuitBreaker breaker, @Nullable Fallback fallback, @Nullable ResultPredicate recordResult) {
        super(breaker, recordResult);
        this.fallback = fallback;
        this.rejectionFallback = fallback == null ? null : fallback.selectFor(CircuitOpenException.class);
        this.rejectionFallbackTakesException =
                rejectionFallback != null && !fallback.isWithoutException(rejectionFallback);
    }

    /** Runs the invocation through the breaker. */
    abstract @Nullable Object invoke(MethodInvocation invocation) throws Throwable;

    @Override
    protected final boolean hasFallback() {
        return fallback != null;
    }

    @Override
    protected final boolean serves(Throwable error) {
        return fallback != null && fallback.serves(error);
    }

    /**
     * The fallback's answer to a rejection ({@code answer}, from {@link #acquire}); throws the
     * rejection when there is no fallback for it.
     */
    final @Nullable Object rejected(@Nullable Object target, @Nullable Object[] arguments, long answer)
            throws Throwable {
        if (rejectionFallback == null) {
            throw rejection(answer);
        }
        return rejectionFallbackTakesException
                ? fallback.invoke(target, arguments, rejection(answer))
                : fallback.invokeWithoutException(target, arguments);
    }

    /** The fallback's answer to a failed call, or {@code error} rethrown unchanged. */
    final @Nullable Object recover(
            @Nullable Object target, @Nullable Object[] arguments, Throwable error, boolean countedAsFailure)
            throws Throwable {
        if (!recovers(error, countedAsFailure)) {
            throw error;
        }
        return fallback.invoke(target, arguments, error);
    }
}
