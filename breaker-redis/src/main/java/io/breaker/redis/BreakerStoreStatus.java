package io.breaker.redis;

import io.breaker.spring.store.StoreFailureMode;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Whether this instance shares its breakers with the fleet right now, without Spring: the logic
 * behind the {@code breakerStore} health contributor and the {@code breaker.store.acting.alone} gauge.
 *
 * <p>While Redis is unavailable an instance either acts alone (failure mode {@code protect-locally}:
 * its breakers trip and probe on its own calls only, so the fleet's promise of one trip and one probe
 * does not hold) or rejects every shared call ({@code reject}). Neither makes the instance unhealthy:
 * every instance sees the same outage, and taking them out of rotation would turn a Redis outage into
 * an outage of the application.
 */
public final class BreakerStoreStatus {

    private final RedisStateStore store;

    public BreakerStoreStatus(RedisStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Reads the store's state now; changes nothing. */
    public Report check() {
        boolean available = store.isAvailable();
        StoreFailureMode mode = store.getSettings().failureMode();
        return new Report(available, actingAlone(available, mode), mode, store.getFailureCount());
    }

    /** Whether the store's instance acts alone: Redis unavailable and failure mode {@code protect-locally}. */
    public static boolean isActingAlone(RedisStateStore store) {
        return actingAlone(store.isAvailable(), store.getSettings().failureMode());
    }

    private static boolean actingAlone(boolean available, StoreFailureMode mode) {
        return !available && mode == StoreFailureMode.PROTECT_LOCALLY;
    }

    /**
     * @param available        whether Redis answered the store's last operation
     * @param actingAlone      Redis unavailable with {@code protect-locally}: this instance's breakers
     *                         decide on its own calls only
     * @param failureMode      what the store does while Redis is unavailable
     * @param failedOperations Redis operations that got no answer since start-up (timed out, failed,
     *                         or skipped while Redis was known to be down)
     */
    public record Report(boolean available, boolean actingAlone, StoreFailureMode failureMode, long failedOperations) {

        /** The details the {@code breakerStore} health contributor shows, in this order, on every Boot line. */
        public Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("available", available);
            details.put("actingAlone", actingAlone);
            details.put("failureMode", failureMode.toString());
            details.put("failedOperations", failedOperations);
            return details;
        }
    }
}
