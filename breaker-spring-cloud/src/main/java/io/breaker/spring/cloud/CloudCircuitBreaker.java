package io.breaker.spring.cloud;

import io.breaker.CallTimeout;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.call.BreakerCall;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Spring Cloud's blocking {@link CircuitBreaker} on one of our breakers, with the rules of
 * {@link BreakerCall}: a rejected call does not run and the fallback gets a
 * {@link io.breaker.CircuitOpenException}; an error the breaker counts as a failure goes to the
 * fallback; an ignored one is thrown to the caller unchanged. With the breaker's {@code record-result},
 * a returned value the rule counts is recorded as a failure and still returned, without the fallback;
 * a predicate that throws ends the call as if the supplier had thrown. Nothing times the call out
 * unless the breaker has a {@code call-timeout}: then the supplier runs on the timeout's thread and,
 * past it, the fallback gets a {@link io.breaker.CallTimeoutException} (recorded as a failure) while
 * the supplier's thread is interrupted, as for a {@code @CircuitProtected} method ({@link CallTimeout}).
 */
final class CloudCircuitBreaker extends BreakerCall implements CircuitBreaker {

    /** The breaker's call timeout, or {@code null}: then {@code run} takes the untimed path. */
    private final @Nullable CallTimeout timeout;

    CloudCircuitBreaker(io.breaker.CircuitBreaker breaker) {
        this(breaker, null, null);
    }

    /**
     * @param recordResult the breaker's {@code record-result} check, or {@code null}: results are not looked at
     * @param timeout      the breaker's call timeout, or {@code null}: no call is cut
     */
    CloudCircuitBreaker(
            io.breaker.CircuitBreaker breaker, @Nullable ResultPredicate recordResult, @Nullable CallTimeout timeout) {
        super(breaker, recordResult);
        this.timeout = timeout;
    }

    @Override
    public <T> T run(Supplier<T> toRun, Function<Throwable, T> fallback) {
        CallTimeout limit = timeout;
        if (limit != null) {
            return runTimed(limit, toRun, fallback);
        }
        long permit = acquire();
        if (permit <= io.breaker.CircuitBreaker.NO_PERMIT) {
            return fallback.apply(rejection(permit));
        }
        long start = start();
        T result;
        boolean failedResult;
        try {
            injectFaults();
            result = toRun.get();
            failedResult = recordResult != null && isFailedResult(result);
        } catch (Throwable error) {
            if (recovers(error, failed(permit, start, error))) {
                return fallback.apply(error);
            }
            throw CloudCircuitBreaker.<RuntimeException>rethrow(error);
        }
        if (failedResult) {
            failedResult(permit, start, result);
        } else {
            succeeded(permit, start);
        }
        return result;
    }

    private <T> T runTimed(CallTimeout limit, Supplier<T> toRun, Function<Throwable, T> fallback) {
        long permit = acquire();
        if (permit <= io.breaker.CircuitBreaker.NO_PERMIT) {
            return fallback.apply(rejection(permit));
        }
        long start = start();
        T result;
        boolean failedResult;
        try {
            result = limit.run(() -> {
                injectFaults(); // on the timed thread: the call timeout cuts an injected latency too
                return toRun.get();
            });
            failedResult = recordResult != null && isFailedResult(result);
        } catch (Throwable error) {
            if (CallTimeout.callerInterrupted(error)) {
                released(permit); // the caller gave up waiting: the call counts neither way
                throw CloudCircuitBreaker.<RuntimeException>rethrow(error);
            }
            if (recovers(error, failed(permit, start, error))) {
                return fallback.apply(error);
            }
            throw CloudCircuitBreaker.<RuntimeException>rethrow(error);
        }
        if (failedResult) {
            failedResult(permit, start, result);
        } else {
            succeeded(permit, start);
        }
        return result;
    }

    /** Every call has a fallback: Spring Cloud's {@code run(supplier)} gives one that throws. */
    @Override
    protected boolean hasFallback() {
        return true;
    }

    @Override
    protected boolean serves(Throwable error) {
        return true;
    }

    /** Throws {@code error} as it is, checked or not (a supplier may throw a checked exception it did not declare). */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E rethrow(Throwable error) throws E {
        throw (E) error;
    }

    @Override
    public String toString() {
        return "CloudCircuitBreaker[" + breaker.getName() + "]";
    }
}
