package io.breaker.spring.aop;

import io.breaker.CallTimeout;
import io.breaker.CircuitBreaker;
import io.breaker.Faults;
import io.breaker.internal.Integration;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.call.FaultedStages;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.interceptor.ExposeInvocationInterceptor;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A method returning {@code CompletionStage} or {@code CompletableFuture}: the outcome and duration
 * are recorded when the future completes. A rejection returns the fallback's future or a failed one,
 * without calling the method. Without a fallback the caller gets the method's own future back. With
 * {@code record-result}, the value the future completes with decides (see {@link #record}); the caller
 * gets that value either way. A breaker's {@code call-timeout} is {@link CallTimeout#within}: the
 * method's future is given that long ({@code orTimeout}), then cancelled, and the call fails with a
 * {@link io.breaker.CallTimeoutException}; the caller then gets the timed future, not the method's own.
 */
final class CompletionStageCall extends ProtectedCall {

    /** The call timeout, or {@code null}: then the method's own future is all there is. */
    private final @Nullable CallTimeout timeout;

    CompletionStageCall(
            CircuitBreaker breaker,
            @Nullable Fallback fallback,
            @Nullable ResultPredicate recordResult,
            @Nullable CallTimeout timeout) {
        super(breaker, fallback, recordResult);
        this.timeout = timeout;
    }

    @Override
    @Nullable
    Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Object[] arguments = invocation.getArguments();
        long permit = acquire();
        if (permit <= CircuitBreaker.NO_PERMIT) {
            if (rejectionFallback == null) {
                return CompletableFuture.failedFuture(Integration.rejection(breaker, permit));
            }
            try {
                return rejected(target, arguments, permit);
            } catch (Throwable fallbackError) {
                return CompletableFuture.failedFuture(fallbackError);
            }
        }
        long start = start();
        Object returned;
        try {
            Faults faults = faults();
            returned = faults == null
                    ? invocation.proceed()
                    : FaultedStages.call(faults, () -> ExposeInvocationInterceptor.INSTANCE.invoke(invocation));
        } catch (Throwable error) {
            boolean failure = failed(permit, start, error);
            return recover(target, arguments, error, failure);
        }
        if (returned == null) {
            succeeded(permit, start);
            return null;
        }
        CallTimeout limit = timeout;
        CompletionStage<?> stage =
                limit == null ? (CompletionStage<?>) returned : limit.within((CompletionStage<?>) returned);
        if (fallback == null) {
            // the caller keeps the method's own future: a predicate that throws is recorded, nothing more
            stage.whenComplete((value, error) -> {
                if (error == null) {
                    recordValue(permit, start, value);
                } else {
                    record(permit, start, error);
                }
            });
            return stage;
        }
        CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
        stage.whenComplete((value, error) -> {
            if (error == null) {
                boolean failedResult;
                try {
                    failedResult = isFailedResult(value);
                } catch (Throwable predicateError) { // as if the method's future had failed with it
                    if (recovers(predicateError, failed(permit, start, predicateError))) {
                        completeFromFallback(result, target, arguments, predicateError);
                    } else {
                        result.completeExceptionally(predicateError);
                    }
                    return;
                }
                if (failedResult) {
                    failedResult(permit, start, value);
                } else {
                    succeeded(permit, start);
                }
                result.complete(value);
                return;
            }
            Throwable cause = unwrap(error);
            if (recovers(cause, record(permit, start, cause))) {
                completeFromFallback(result, target, arguments, cause);
            } else {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }

    /**
     * Records a value the future completed with: a failure when {@code record-result} counts it as
     * one, else a success. A predicate that throws is recorded as the call's error.
     */
    private void recordValue(long permit, long start, @Nullable Object value) {
        boolean failedResult;
        try {
            failedResult = isFailedResult(value);
        } catch (Throwable predicateError) {
            failed(permit, start, predicateError);
            return;
        }
        if (failedResult) {
            failedResult(permit, start, value);
        } else {
            succeeded(permit, start);
        }
    }

    /**
     * Records the outcome: success, cancellation (neither way; a half-open permit goes back) or error.
     *
     * @return whether the (unwrapped) error counted as a failure
     */
    private boolean record(long permit, long start, @Nullable Throwable error) {
        if (error == null) {
            succeeded(permit, start);
            return false;
        }
        Throwable cause = unwrap(error);
        if (cause instanceof CancellationException) {
            breaker.releasePermit(permit);
            return false;
        }
        return failed(permit, start, cause);
    }

    private void completeFromFallback(
            CompletableFuture<@Nullable Object> result,
            @Nullable Object target,
            @Nullable Object[] arguments,
            Throwable cause) {
        try {
            CompletionStage<?> answer = (CompletionStage<?>) fallback.invoke(target, arguments, cause);
            if (answer == null) {
                result.complete(null);
                return;
            }
            answer.whenComplete((value, error) -> {
                if (error == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(unwrap(error));
                }
            });
        } catch (Throwable fallbackError) {
            result.completeExceptionally(fallbackError);
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
