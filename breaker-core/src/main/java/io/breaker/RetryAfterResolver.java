package io.breaker;

import java.time.Duration;
import java.util.Optional;

/**
 * Finds how long a dependency asked callers to wait in a failure the breaker cannot read by itself
 * (a client library's exception that carries the response's headers, say). Set on a config with
 * {@link BreakerConfig.Builder#retryAfterResolver}; asked before {@link RetryAfterAware}, and only
 * for the failure that opens the breaker (a trip, or a failed probe), never on an ordinary call.
 */
@FunctionalInterface
public interface RetryAfterResolver {

    /**
     * How long the dependency asked to wait, according to {@code failure}: the exception recorded as
     * a failure, or the result counted as one. Empty if it does not say (the breaker then looks for a
     * {@link RetryAfterAware}). An exception thrown here counts as empty.
     */
    Optional<Duration> retryAfter(Object failure);
}
