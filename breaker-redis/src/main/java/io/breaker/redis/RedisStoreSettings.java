package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.spring.config.PropertyValues;
import io.breaker.spring.store.StoreFailureMode;
import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * Settings of a {@link RedisStateStore}, checked once here whether they come from
 * {@code breakers.store.*} or from code: a bad value throws an {@link InvalidStorePropertyException}
 * that names the property setting it, so a start-up report and a programmatic error read the same.
 *
 * @param stateCacheTtl how long an instance serves calls from its cached copy of the shared state
 *                      before its first call after that refreshes it (at most one Redis round trip
 *                      per called breaker per period; none for a breaker nobody calls); at least 1 ms
 * @param timeout       the longest a caller waits for one Redis operation before it falls back; at
 *                      least 1 ms and shorter than {@code stateCacheTtl}
 * @param failureMode   what breakers do while Redis cannot be reached; a deprecated alias is kept as
 *                      its {@link StoreFailureMode#canonical() canonical} value
 * @param keyExpiry     how long the keys of a breaker no instance touches any more stay in Redis; at
 *                      least 1 ms, and longer than each shared breaker's wait plus probe lease
 *                      ({@link #requireKeyExpiryCovers})
 * @param outageAfter   how long operations may go unanswered (not even late) before the store takes
 *                      Redis to be down and the failure mode applies; at least {@code timeout}. One
 *                      slow answer is not an outage (see {@code StoreHealth})
 */
public record RedisStoreSettings(
        Duration stateCacheTtl,
        Duration timeout,
        StoreFailureMode failureMode,
        Duration keyExpiry,
        Duration outageAfter) {

    /** Default cache period: 1 s. */
    public static final Duration DEFAULT_STATE_CACHE_TTL = Duration.ofSeconds(1);
    /** Default Redis operation timeout: 50 ms. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);
    /** Default key expiry: 7 days without any instance touching the breaker. */
    public static final Duration DEFAULT_KEY_EXPIRY = Duration.ofDays(7);
    /** Default time without any answer before an outage: 1 s. */
    public static final Duration DEFAULT_OUTAGE_AFTER = Duration.ofSeconds(1);
    /**
     * The shortest store duration: Redis and the store work in whole milliseconds, so a shorter one
     * would be 0 (a key expiring at once, a timeout that never waits, a cache that is always due).
     */
    public static final Duration MINIMUM_DURATION = Duration.ofMillis(1);

    static final String STATE_CACHE_TTL = "breakers.store.state-cache-ttl";
    static final String TIMEOUT = "breakers.store.timeout";
    static final String FAILURE_MODE = "breakers.store.failure-mode";
    static final String KEY_EXPIRY = "breakers.store.key-expiry";
    static final String OUTAGE_AFTER = "breakers.store.outage-after";

    public RedisStoreSettings {
        atLeastMinimum(STATE_CACHE_TTL, stateCacheTtl, "1s or 500ms");
        atLeastMinimum(TIMEOUT, timeout, "50ms");
        atLeastMinimum(KEY_EXPIRY, keyExpiry, "7d");
        atLeastMinimum(OUTAGE_AFTER, outageAfter, "1s");
        if (failureMode == null) {
            throw new InvalidStorePropertyException(
                    FAILURE_MODE, "", "one of " + PropertyValues.allowed(StoreFailureMode.class));
        }
        failureMode = failureMode.canonical();
        if (timeout.compareTo(stateCacheTtl) >= 0) {
            throw new InvalidStorePropertyException(
                    TIMEOUT,
                    PropertyValues.of(timeout),
                    "shorter than " + STATE_CACHE_TTL + " (" + PropertyValues.of(stateCacheTtl)
                            + "): tens of milliseconds, such as 50ms");
        }
        if (outageAfter.compareTo(timeout) < 0) {
            throw new InvalidStorePropertyException(
                    OUTAGE_AFTER,
                    PropertyValues.of(outageAfter),
                    "at least " + TIMEOUT + " (" + PropertyValues.of(timeout)
                            + "), such as 1s: one slow answer must not make an outage");
        }
    }

    /** Settings with the default {@link #outageAfter()}. */
    public RedisStoreSettings(
            Duration stateCacheTtl, Duration timeout, StoreFailureMode failureMode, Duration keyExpiry) {
        this(stateCacheTtl, timeout, failureMode, keyExpiry, DEFAULT_OUTAGE_AFTER);
    }

    /** The defaults: 1 s cache, 50 ms timeout, protect locally, 7 days key expiry. */
    public static RedisStoreSettings defaults() {
        return new RedisStoreSettings(
                DEFAULT_STATE_CACHE_TTL, DEFAULT_TIMEOUT, StoreFailureMode.PROTECT_LOCALLY, DEFAULT_KEY_EXPIRY);
    }

    /** A copy with another cache period. */
    public RedisStoreSettings withStateCacheTtl(Duration ttl) {
        return new RedisStoreSettings(ttl, timeout, failureMode, keyExpiry, outageAfter);
    }

    /** A copy with another operation timeout. */
    public RedisStoreSettings withTimeout(Duration operationTimeout) {
        return new RedisStoreSettings(stateCacheTtl, operationTimeout, failureMode, keyExpiry, outageAfter);
    }

    /** A copy with another failure mode. */
    public RedisStoreSettings withFailureMode(StoreFailureMode mode) {
        return new RedisStoreSettings(stateCacheTtl, timeout, mode, keyExpiry, outageAfter);
    }

    /** A copy with another key expiry. */
    public RedisStoreSettings withKeyExpiry(Duration expiry) {
        return new RedisStoreSettings(stateCacheTtl, timeout, failureMode, expiry, outageAfter);
    }

    /** A copy with another time without answers before an outage. */
    public RedisStoreSettings withOutageAfter(Duration silence) {
        return new RedisStoreSettings(stateCacheTtl, timeout, failureMode, keyExpiry, silence);
    }

    /**
     * Checks that a shared breaker's keys outlive its longest episode without a script call: the keys'
     * expiry is renewed by every script call, and after a trip nobody may call Redis until the wait is
     * over and then until the probe's lease runs out. A shorter expiry would let Redis drop an OPEN
     * state (and its probe lease) before anyone probes.
     *
     * @throws InvalidStorePropertyException naming {@code breakers.store.key-expiry}, its value, the
     *                                       breaker and the minimum, unless {@code keyExpiry} is longer
     *                                       than the breaker's wait in OPEN plus its probe lease
     */
    public void requireKeyExpiryCovers(String breakerName, BreakerConfig config) {
        keyExpiryCovers(config, "of the shared breaker '" + breakerName + "'");
    }

    /** The same check for {@code breakers.defaults}, which breakers named only in code or annotations get. */
    void requireKeyExpiryCoversDefaults(BreakerConfig defaults) {
        keyExpiryCovers(defaults, "of breakers.defaults, which every shared breaker without settings of its own uses");
    }

    private void keyExpiryCovers(BreakerConfig config, String whose) {
        Duration wait = config.getWaitDurationInOpenState();
        Duration lease = config.getProbeLease();
        Duration minimum = wait.plus(lease);
        if (keyExpiry.compareTo(minimum) <= 0) {
            throw new InvalidStorePropertyException(
                    KEY_EXPIRY,
                    PropertyValues.of(keyExpiry),
                    "longer than "
                            + PropertyValues.of(minimum) + ", the wait-duration-in-open-state ("
                            + PropertyValues.of(wait)
                            + ") plus the probe-lease (" + PropertyValues.of(lease) + ") " + whose
                            + " (or those two shorter)");
        }
    }

    /** Between {@link #MINIMUM_DURATION} and {@link BreakerConfig#MAX_DURATION}, which the store counts in nanoseconds. */
    private static void atLeastMinimum(String property, @Nullable Duration value, String example) {
        if (value == null || value.compareTo(MINIMUM_DURATION) < 0 || value.compareTo(BreakerConfig.MAX_DURATION) > 0) {
            throw new InvalidStorePropertyException(
                    property,
                    PropertyValues.of(value),
                    "a duration of at least " + PropertyValues.of(MINIMUM_DURATION) + " and at most "
                            + PropertyValues.of(BreakerConfig.MAX_DURATION) + " (about 292 years), such as "
                            + example);
        }
    }
}
