package io.breaker.dynamodb;

import io.breaker.spring.config.InvalidBreakerPropertyException;
import io.breaker.spring.store.StoreFailureMode;
import io.breaker.spring.store.StoreType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.net.URI;
import java.time.Duration;

/**
 * Settings of the shared breaker state in DynamoDB, bound to {@code breakers.store}. The defaults are
 * written out (the configuration processor reads them from here into the IDE's help); a test checks
 * that they are {@link DynamoStoreSettings}'s.
 */
@ConfigurationProperties(prefix = "breakers.store")
public class DynamoStoreProperties {

    private static final Log LOG = LogFactory.getLog(DynamoStoreProperties.class);

    /** Where breakers keep their state: memory (each instance on its own), redis or dynamodb (shared by all instances). */
    private StoreType type = StoreType.MEMORY;

    /** How long an instance serves calls from its cached copy of the shared state before refreshing it (at least 1ms). */
    private Duration stateCacheTtl = Duration.ofSeconds(1);

    /** The longest a call waits for one store operation before falling back to the failure mode (at least 1ms, shorter than the cache TTL). */
    private Duration timeout = Duration.ofMillis(200);

    /** What breakers do while the store cannot be reached: protect-locally (keep serving, each instance on its own breaker) or reject (reject every call). */
    private StoreFailureMode failureMode = StoreFailureMode.PROTECT_LOCALLY;

    /** How long store operations may go unanswered, not even late, before the store is taken to be down (at least the timeout). */
    private Duration outageAfter = Duration.ofSeconds(2);

    private final Dynamodb dynamodb = new Dynamodb();

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

    public Duration getOutageAfter() {
        return outageAfter;
    }

    public void setOutageAfter(Duration outageAfter) {
        this.outageAfter = outageAfter;
    }

    public Dynamodb getDynamodb() {
        return dynamodb;
    }

    /** The table and the client ({@code breakers.store.dynamodb.*}). */
    public static class Dynamodb {

        /** The table holding one item per shared breaker (partition key 'breaker', a string; TTL attribute 'expires_at'). */
        private String table = "breaker-state";

        /** How long the item of a breaker nobody writes stays before DynamoDB's TTL may delete it (cleanup only; longer than each shared breaker's longest wait plus probe lease). */
        private Duration itemExpiry = Duration.ofDays(7);

        /** The endpoint of the client this module creates when the application defines no DynamoDbClient bean (for a local DynamoDB API); unset for AWS's regional endpoint. */
        private @Nullable URI endpoint;

        public String getTable() {
            return table;
        }

        public void setTable(String table) {
            this.table = table;
        }

        public Duration getItemExpiry() {
            return itemExpiry;
        }

        public void setItemExpiry(Duration itemExpiry) {
            this.itemExpiry = itemExpiry;
        }

        public @Nullable URI getEndpoint() {
            return endpoint;
        }

        public void setEndpoint(@Nullable URI endpoint) {
            this.endpoint = endpoint;
        }
    }

    /**
     * The store settings, checked by {@link DynamoStoreSettings}; a bad value stops start-up with the
     * starter's explanation of a bad breaker property.
     */
    DynamoStoreSettings toSettings() {
        DynamoStoreSettings settings;
        try {
            settings = new DynamoStoreSettings(
                    dynamodb.getTable(), stateCacheTtl, timeout, failureMode, dynamodb.getItemExpiry(), outageAfter);
        } catch (InvalidDynamoSettingException bad) {
            throw new InvalidBreakerPropertyException(bad.property(), bad.value(), "", bad.allowed(), bad);
        }
        String notice = failureMode.deprecationNotice(DynamoStoreSettings.FAILURE_MODE);
        if (notice != null) {
            LOG.warn(notice);
        }
        return settings;
    }
}
