package io.breaker;

import java.time.Duration;
import java.util.Optional;

/**
 * A failure that knows when the dependency will take calls again: an exception (or a result recorded
 * as a failure) of a client whose server answered with a {@code Retry-After}, say. When the failure
 * that trips a breaker, or that fails its probe, implements this, the breaker stays OPEN for the
 * longer of its configured wait and this duration, capped by
 * {@link BreakerConfig#getMaxWaitDurationInOpenState()}.
 *
 * <p>The breaker asks only the failure that opens it, once, never on an ordinary call. A failure
 * found among the causes of the exception counts as well.
 */
@FunctionalInterface
public interface RetryAfterAware {

    /** How long the dependency asked callers to wait, or empty if it did not say. */
    Optional<Duration> retryAfter();
}
