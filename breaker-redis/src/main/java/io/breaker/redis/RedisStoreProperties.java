package io.breaker.redis;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/** Settings of the shared breaker state, bound to {@code breakers.store}. */
@ConfigurationProperties(prefix = "breakers.store")
public class RedisStoreProperties {

    /** Where breakers keep their state: memory (each instance on its own) or redis (shared by all instances). */
    private StoreType type = StoreType.MEMORY;

    /** How long an instance serves calls from its cached copy of the shared state before refreshing it. */
    private Duration stateCacheTtl = Duration.ofSeconds(1);

    /** The longest a call waits for one Redis operation before falling back to the failure mode. */
    private Duration timeout = Duration.ofMillis(50);

    /** What breakers do while Redis cannot be reached: open (keep serving, protect locally) or closed (reject calls). */
    private StoreFailureMode failureMode = StoreFailureMode.OPEN;

    /** How long a breaker's keys stay in Redis once no instance touches them any more (cleanup only). */
    private Duration keyExpiry = Duration.ofDays(7);

    public StoreType getType() {
        return type;
    }

    public void setType(StoreType type) {
        this.type = type;
    }

    public Duration getStateCacheTtl() {
        return stateCacheTtl;
    }

    public void setStateCacheTtl(Duration stateCacheTtl) {
        this.stateCacheTtl = stateCacheTtl;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public StoreFailureMode getFailureMode() {
        return failureMode;
    }

    public void setFailureMode(StoreFailureMode failureMode) {
        this.failureMode = failureMode;
    }

    public Duration getKeyExpiry() {
        return keyExpiry;
    }

    public void setKeyExpiry(Duration keyExpiry) {
        this.keyExpiry = keyExpiry;
    }

    /** The store settings, each value checked with a message naming its property. */
    RedisStoreSettings toSettings() {
        positive("breakers.store.state-cache-ttl", stateCacheTtl, "a positive duration, such as 1s or 500ms");
        positive("breakers.store.timeout", timeout, "a positive duration, such as 50ms");
        positive("breakers.store.key-expiry", keyExpiry, "a positive duration, such as 7d");
        if (timeout.compareTo(stateCacheTtl) >= 0) {
            throw new InvalidStorePropertyException("breakers.store.timeout", timeout.toMillis() + "ms",
                    "shorter than breakers.store.state-cache-ttl (" + stateCacheTtl.toMillis()
                            + "ms): tens of milliseconds, such as 50ms");
        }
        if (failureMode == null) {
            throw new InvalidStorePropertyException("breakers.store.failure-mode", "", "open or closed");
        }
        return new RedisStoreSettings(stateCacheTtl, timeout, failureMode, keyExpiry);
    }

    private static void positive(String property, Duration value, String allowed) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidStorePropertyException(property, value == null ? "" : value.toMillis() + "ms", allowed);
        }
    }
}
