package io.breaker.dynamodb;

import io.breaker.spring.store.StoreFailureMode;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Whether this instance shares its breakers with the fleet right now, and how far its clock is from
 * DynamoDB's, without Spring: the logic behind a health contributor. Like the Redis store's status, an
 * unreachable table does not make the instance unhealthy (every instance sees the same outage).
 *
 * <p>The protocol's times are the instances' wall clocks, so their skew matters: a probe lease stays
 * exclusive while two instances' clocks differ by less than the lease (the holder keeps the lease for
 * the lease minus that difference). Two instances differ by at most the sum of their distances to
 * DynamoDB's clock; {@link Report#toleratedSkew()} is half the shortest probe lease of this instance's
 * shared breakers, which keeps every pair within the lease if each instance stays within it.
 */
public final class DynamoStoreStatus {

    private final DynamoStateStore store;

    public DynamoStoreStatus(DynamoStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Reads the store's state now; changes nothing. */
    public Report check() {
        boolean available = store.isAvailable();
        StoreFailureMode mode = store.getSettings().failureMode();
        Duration tolerated =
                store.shortestProbeLease().map(lease -> lease.dividedBy(2)).orElse(null);
        Duration skew = store.getClockSkew().orElse(null);
        Duration uncertainty = store.getClockSkewUncertainty().orElse(null);
        Boolean within = tolerated == null || skew == null
                ? null
                : skew.abs().plus(uncertainty).compareTo(tolerated) < 0;
        return new Report(
                available,
                !available && mode == StoreFailureMode.PROTECT_LOCALLY,
                mode,
                store.getFailureCount(),
                skew,
                uncertainty,
                tolerated,
                within);
    }

    /**
     * @param available             whether the table answers
     * @param actingAlone           table unavailable with {@code protect-locally}: this instance's breakers
     *                              decide on its own calls only
     * @param failureMode           what the store does while the table is unavailable
     * @param failedOperations      table operations that got no answer since start-up
     * @param clockSkew             this instance's wall clock minus DynamoDB's (null before the first answer)
     * @param clockSkewUncertainty  how far {@code clockSkew} may be off (the answers' Date header has a
     *                              one-second resolution; many answers narrow it)
     * @param toleratedSkew         half the shortest probe lease of the shared breakers (null before one is shared)
     * @param skewWithinTolerance   whether the skew, uncertainty included, is below the tolerated skew
     *                              (null when either is unknown)
     */
    public record Report(
            boolean available,
            boolean actingAlone,
            StoreFailureMode failureMode,
            long failedOperations,
            @Nullable Duration clockSkew,
            @Nullable Duration clockSkewUncertainty,
            @Nullable Duration toleratedSkew,
            @Nullable Boolean skewWithinTolerance) {

        /** The details a health contributor shows, in this order. */
        public Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("available", available);
            details.put("actingAlone", actingAlone);
            details.put("failureMode", failureMode.toString());
            details.put("failedOperations", failedOperations);
            if (clockSkew != null) {
                details.put("clockSkew", clockSkew);
                details.put("clockSkewUncertainty", clockSkewUncertainty);
            }
            if (toleratedSkew != null) {
                details.put("toleratedSkew", toleratedSkew);
            }
            if (skewWithinTolerance != null) {
                details.put("skewWithinTolerance", skewWithinTolerance);
            }
            return details;
        }
    }
}
