package io.breaker;

/** Why an OPEN breaker waits as long as it does before it lets a probe through. */
public enum WaitReason {
    /**
     * The configured wait ({@link BreakerConfig#getWaitDurationInOpenState()}), less its jitter
     * ({@link BreakerConfig#getWaitJitter()}) if any.
     */
    CONFIGURED,
    /**
     * Longer than configured: the failure that opened the breaker carried a Retry-After (see
     * {@link RetryAfterAware}), capped by {@link BreakerConfig#getMaxWaitDurationInOpenState()}.
     */
    RETRY_AFTER,
    /**
     * Longer than configured: probes failed since the breaker tripped, and each multiplied the wait by
     * {@link BreakerConfig#getWaitMultiplier()}, capped by {@link BreakerConfig#getMaxWaitDurationInOpenState()}.
     */
    BACKOFF
}
