package io.breaker.redis;

import io.breaker.spring.store.StoreFailureMode;
import io.breaker.spring.store.StoreType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/** Settings of the shared breaker state, bound to {@code breakers.store}. */
@ConfigurationProperties(prefix = "breakers.store")
public class RedisStoreProperties {

    private static final Log LOG = LogFactory.getLog(RedisStoreProperties.class);

    /** Where breakers keep their state: memory (each instance on its own), redis (shared by all instances) or dynamodb (shared through breaker-dynamodb, when it is on the class path). */
    private StoreType type = StoreType.MEMORY;

    /** How long an instance serves calls from its cached copy of the shared state before refreshing it (at least 1ms). */
    private Duration stateCacheTtl = Duration.ofSeconds(1);

    /** The longest a call waits for one Redis operation before falling back to the failure mode (at least 1ms, shorter than the cache TTL). */
    private Duration timeout = Duration.ofMillis(50);

    /** What breakers do while Redis cannot be reached: protect-locally (keep serving, each instance on its own breaker) or reject (reject every call). */
    private StoreFailureMode failureMode = StoreFailureMode.PROTECT_LOCALLY;

    /** How long a breaker's keys stay in Redis once no instance touches them any more (cleanup only; longer than each shared breaker's wait plus probe lease). */
    private Duration keyExpiry = Duration.ofDays(7);

    /** How long Redis operations may go unanswered, not even late, before Redis is taken to be down and the failure mode applies (at least the timeout); one slow answer is not an outage. */
    private Duration outageAfter = Duration.ofSeconds(1);

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

    public Duration getOutageAfter() {
        return outageAfter;
    }

    public void setOutageAfter(Duration outageAfter) {
        this.outageAfter = outageAfter;
    }

    /**
     * The store settings, checked by {@link RedisStoreSettings} (a bad value names its property). A
     * deprecated failure mode is accepted and logged once, with the value to write instead.
     */
    RedisStoreSettings toSettings() {
        RedisStoreSettings settings =
                new RedisStoreSettings(stateCacheTtl, timeout, failureMode, keyExpiry, outageAfter);
        String notice = failureMode.deprecationNotice(RedisStoreSettings.FAILURE_MODE);
        if (notice != null) {
            LOG.warn(notice);
        }
        return settings;
    }
}
