package io.breaker.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link RedisStateStore}.
 *
 * @param stateCacheTtl how long an instance serves calls from its cached copy of the shared state
 *                      before its first call after that refreshes it (at most one Redis round trip
 *                      per called breaker per period; none for a breaker nobody calls)
 * @param timeout       the longest a caller waits for one Redis operation before it falls back
 * @param failureMode   what breakers do while Redis cannot be reached
 * @param keyExpiry     how long the keys of a breaker no instance touches any more stay in Redis
 */
public record RedisStoreSettings(Duration stateCacheTtl, Duration timeout, StoreFailureMode failureMode,
                                 Duration keyExpiry) {

    /** Default cache period: 1 s. */
    public static final Duration DEFAULT_STATE_CACHE_TTL = Duration.ofSeconds(1);
    /** Default Redis operation timeout: 50 ms. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);
    /** Default key expiry: 7 days without any instance touching the breaker. */
    public static final Duration DEFAULT_KEY_EXPIRY = Duration.ofDays(7);

    public RedisStoreSettings {
        positive("stateCacheTtl", stateCacheTtl);
        positive("timeout", timeout);
        positive("keyExpiry", keyExpiry);
        Objects.requireNonNull(failureMode, "failureMode must not be null");
        if (timeout.compareTo(stateCacheTtl) >= 0) {
            throw new IllegalArgumentException("timeout must be shorter than stateCacheTtl (" + stateCacheTtl
                    + "), was " + timeout);
        }
    }

    /** The defaults: 1 s cache, 50 ms timeout, fail open, 7 days key expiry. */
    public static RedisStoreSettings defaults() {
        return new RedisStoreSettings(DEFAULT_STATE_CACHE_TTL, DEFAULT_TIMEOUT, StoreFailureMode.OPEN,
                DEFAULT_KEY_EXPIRY);
    }

    /** A copy with another cache period. */
    public RedisStoreSettings withStateCacheTtl(Duration ttl) {
        return new RedisStoreSettings(ttl, timeout, failureMode, keyExpiry);
    }

    /** A copy with another operation timeout. */
    public RedisStoreSettings withTimeout(Duration operationTimeout) {
        return new RedisStoreSettings(stateCacheTtl, operationTimeout, failureMode, keyExpiry);
    }

    /** A copy with another failure mode. */
    public RedisStoreSettings withFailureMode(StoreFailureMode mode) {
        return new RedisStoreSettings(stateCacheTtl, timeout, mode, keyExpiry);
    }

    /** A copy with another key expiry. */
    public RedisStoreSettings withKeyExpiry(Duration expiry) {
        return new RedisStoreSettings(stateCacheTtl, timeout, failureMode, expiry);
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
        }
    }
}
