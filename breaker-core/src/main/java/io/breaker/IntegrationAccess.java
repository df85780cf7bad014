package io.breaker;

import io.breaker.spi.Integration;

/** What the engine lends integrations through {@link Integration}, and nobody else. */
final class IntegrationAccess implements Integration.Access {

    @Override
    public NanoClock clock(CircuitBreaker breaker) {
        return breaker.clock();
    }

    @Override
    public boolean isTimingCalls(CircuitBreaker breaker) {
        return breaker.timed();
    }

    @Override
    public long tryAcquirePermit(CircuitBreaker breaker) {
        return breaker.permitOrWaitLeft();
    }

    @Override
    public CircuitOpenException rejection(CircuitBreaker breaker, long answer) {
        return breaker.rejection(answer);
    }

    @Override
    public void onSuccess(CircuitBreaker breaker, long permit, long startNanos, long endNanos) {
        breaker.onSuccessBetween(permit, startNanos, endNanos);
    }

    @Override
    public boolean onError(CircuitBreaker breaker, long permit, long startNanos, long endNanos, Throwable error) {
        return breaker.onErrorBetween(permit, startNanos, endNanos, error);
    }
}
