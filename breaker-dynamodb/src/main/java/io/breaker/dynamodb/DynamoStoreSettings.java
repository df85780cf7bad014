package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.spring.config.PropertyValues;
import io.breaker.spring.store.StoreFailureMode;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Settings of a {@link DynamoStateStore}, checked once here whether they come from
 * {@code breakers.store.*} or from code: a bad value throws an {@link InvalidDynamoSettingException}
 * naming the property.
 *
 * @param table         the table holding one item per shared breaker (partition key {@code breaker}, a string)
 * @param stateCacheTtl how long an instance serves calls from its cached copy of the shared state before
 *                      its first call after that refreshes it (one strongly consistent read per called
 *                      breaker per period); at least 1 ms
 * @param timeout       the longest a caller waits for one table operation before it falls back; at least
 *                      1 ms and shorter than {@code stateCacheTtl}
 * @param failureMode   what breakers do while the table cannot be reached
 * @param itemExpiry    how long an item nobody writes stays before DynamoDB's TTL may delete it (cleanup
 *                      only); longer than each shared breaker's longest wait plus its probe lease
 * @param outageAfter   how long operations may go unanswered (not even late) before the table is taken to
 *                      be down and the failure mode applies; at least {@code timeout}
 */
public record DynamoStoreSettings(
        String table,
        Duration stateCacheTtl,
        Duration timeout,
        StoreFailureMode failureMode,
        Duration itemExpiry,
        Duration outageAfter) {

    /** Default table name. */
    public static final String DEFAULT_TABLE = "breaker-state";
    /** Default cache period: 1 s. */
    public static final Duration DEFAULT_STATE_CACHE_TTL = Duration.ofSeconds(1);
    /** Default operation timeout: 200 ms (a DynamoDB round trip inside a region takes a few ms, its tail tens). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(200);
    /** Default item expiry: 7 days without any write. */
    public static final Duration DEFAULT_ITEM_EXPIRY = Duration.ofDays(7);
    /** Default time without any answer before an outage: 2 s. */
    public static final Duration DEFAULT_OUTAGE_AFTER = Duration.ofSeconds(2);

    static final String TABLE = "breakers.store.dynamodb.table";
    static final String STATE_CACHE_TTL = "breakers.store.state-cache-ttl";
    static final String TIMEOUT = "breakers.store.timeout";
    static final String FAILURE_MODE = "breakers.store.failure-mode";
    static final String ITEM_EXPIRY = "breakers.store.dynamodb.item-expiry";
    static final String OUTAGE_AFTER = "breakers.store.outage-after";

    /** DynamoDB's rule for table names. */
    private static final Pattern TABLE_NAME = Pattern.compile("[a-zA-Z0-9_.-]{3,255}");

    private static final Duration MINIMUM = Duration.ofMillis(1);

    public DynamoStoreSettings {
        if (table == null || !TABLE_NAME.matcher(table).matches()) {
            throw new InvalidDynamoSettingException(
                    TABLE, String.valueOf(table), "3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'");
        }
        atLeastOneMilli(STATE_CACHE_TTL, stateCacheTtl);
        atLeastOneMilli(TIMEOUT, timeout);
        atLeastOneMilli(ITEM_EXPIRY, itemExpiry);
        atLeastOneMilli(OUTAGE_AFTER, outageAfter);
        if (failureMode == null) {
            throw new InvalidDynamoSettingException(
                    FAILURE_MODE, "", "one of " + PropertyValues.allowed(StoreFailureMode.class));
        }
        failureMode = failureMode.canonical();
        if (timeout.compareTo(stateCacheTtl) >= 0) {
            throw new InvalidDynamoSettingException(
                    TIMEOUT, timeout.toString(), "shorter than " + STATE_CACHE_TTL + " (" + stateCacheTtl + ")");
        }
        if (outageAfter.compareTo(timeout) < 0) {
            throw new InvalidDynamoSettingException(
                    OUTAGE_AFTER, outageAfter.toString(), "at least " + TIMEOUT + " (" + timeout + ")");
        }
    }

    /** The defaults, on {@code table}. */
    public static DynamoStoreSettings defaults(String table) {
        return new DynamoStoreSettings(
                table,
                DEFAULT_STATE_CACHE_TTL,
                DEFAULT_TIMEOUT,
                StoreFailureMode.PROTECT_LOCALLY,
                DEFAULT_ITEM_EXPIRY,
                DEFAULT_OUTAGE_AFTER);
    }

    /** A copy with another cache period. */
    public DynamoStoreSettings withStateCacheTtl(Duration ttl) {
        return new DynamoStoreSettings(table, ttl, timeout, failureMode, itemExpiry, outageAfter);
    }

    /** A copy with another operation timeout. */
    public DynamoStoreSettings withTimeout(Duration operationTimeout) {
        return new DynamoStoreSettings(table, stateCacheTtl, operationTimeout, failureMode, itemExpiry, outageAfter);
    }

    /** A copy with another failure mode. */
    public DynamoStoreSettings withFailureMode(StoreFailureMode mode) {
        return new DynamoStoreSettings(table, stateCacheTtl, timeout, mode, itemExpiry, outageAfter);
    }

    /** A copy with another time without answers before an outage. */
    public DynamoStoreSettings withOutageAfter(Duration silence) {
        return new DynamoStoreSettings(table, stateCacheTtl, timeout, failureMode, itemExpiry, silence);
    }

    /**
     * Checks that a shared breaker's item outlives its longest episode without a write: after a trip
     * nobody writes until the wait is over and then until the probe lease runs out.
     */
    void requireItemExpiryCovers(String breakerName, BreakerConfig config) {
        Duration minimum = config.longestWaitInOpenState().plus(config.getProbeLease());
        if (itemExpiry.compareTo(minimum) <= 0) {
            throw new InvalidDynamoSettingException(
                    ITEM_EXPIRY,
                    itemExpiry.toString(),
                    "longer than " + minimum + ", the longest wait in OPEN plus the probe lease of the shared breaker '"
                            + breakerName + "'");
        }
    }

    private static void atLeastOneMilli(String property, @Nullable Duration value) {
        if (value == null || value.compareTo(MINIMUM) < 0 || value.compareTo(BreakerConfig.MAX_DURATION) > 0) {
            throw new InvalidDynamoSettingException(
                    property, String.valueOf(value), "a duration of at least 1ms (and at most about 292 years)");
        }
    }
}
