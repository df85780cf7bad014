package io.breaker.redis.fleet;

import io.breaker.dynamodb.Dynalite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Settings changed at runtime through a DynamoDB table that loses them: two separate JVM processes of
 * {@link FleetInstance} share one table of a real DynamoDB API server (dynalite, which keeps its tables
 * in memory), driven over HTTP only; dynalite is killed and started again with the table created anew,
 * empty, as {@link StoreFaults#of(Dynalite, String)} does in the fleet's rounds. The Redis counterpart
 * is {@link SharedSettingsFleetTest}'s first test.
 */
class DynamoSharedSettingsFleetTest {

    @RegisterExtension
    static final Dynalite dynalite = new Dynalite();

    private static final Duration CACHE_TTL = Duration.ofMillis(300);
    private static final Duration STORE_TIMEOUT = Duration.ofMillis(250);
    /** One cache TTL, one round trip, and slack for separate JVMs on 2 shared cores. */
    private static final Duration SEEN_WITHIN = Duration.ofSeconds(8);

    /**
     * The table restarted empty loses the item with the fleet's settings: the next change through
     * either instance is the fleet's again, and every instance applies it; the shared breaker still
     * trips afterwards.
     */
    @Test
    void afterTheTableLostTheSettingsTheNextChangeReachesEveryInstanceAndTheBreakerStillTrips() throws Exception {
        String table = dynalite.createTable();
        try (Dependency dependency = new Dependency();
                FleetProcesses fleet = FleetProcesses.start(
                        FleetSettings.sharedThroughDynamo(2, Duration.ofSeconds(5), STORE_TIMEOUT),
                        StoreAddress.dynamo(dynalite.port(), table),
                        dependency::uri,
                        Path.of("target", "dynamo-shared-settings-fleet-logs"),
                        List.of("--breakers.store.state-cache-ttl=" + CACHE_TTL.toMillis() + "ms"))) {
            fleet.awaitStoreReachable("the table", Duration.ofSeconds(20));
            fleet.changeUntilTheFleetTookIt(0, "{\"sliding-window-size\": 20}");
            fleet.awaitSettingValue(0, "sliding-window-size", "20", SEEN_WITHIN);
            fleet.awaitSettingValue(1, "sliding-window-size", "20", SEEN_WITHIN);

            StoreFaults.of(dynalite, table).restartEmpty();
            fleet.awaitStoreReachable("the table", Duration.ofSeconds(20));

            // The first instance to find the settings gone puts back what it remembers under a new epoch;
            // a change based on the old one is refused with those (409) and made again, as an operator would.
            fleet.changeUntilTheFleetTookIt(0, "{\"sliding-window-size\": 10}");
            fleet.awaitSettingValue(1, "sliding-window-size", "10", SEEN_WITHIN);
            fleet.awaitSettingValue(0, "sliding-window-size", "10", SEEN_WITHIN);
            assertThat(fleetSettings(table)).containsEntry("sliding-window-size", "10");

            dependency.failing();
            int reached = failingCallsUntilEveryInstanceRejects(fleet, dependency, 40);
            assertThat(reached)
                    .as("failing calls that reached the dependency before both instances rejected")
                    .isLessThan(40);
        }
    }

    /**
     * Makes failing calls, alternating between the instances, until both reject or {@code limit} calls
     * were made; returns how many were made. A fleet whose instances disagreed on the window's size would
     * keep restarting the shared window and reach the limit.
     */
    private static int failingCallsUntilEveryInstanceRejects(FleetProcesses fleet, Dependency dependency, int limit) {
        boolean[] rejecting = new boolean[fleet.size()];
        int made = 0;
        while (made < limit && !(rejecting[0] && rejecting[1])) {
            int instance = made % fleet.size();
            rejecting[instance] = fleet.call(instance) == 503;
            made++;
        }
        dependency.healthy();
        return made;
    }

    /** The fleet's settings in the breaker's item ({@code set_p}), property to value; empty without any. */
    private static Map<String, String> fleetSettings(String table) {
        Map<String, AttributeValue> item = dynalite.client()
                .getItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS(FleetInstance.BREAKER)))
                        .consistentRead(true))
                .item();
        AttributeValue settings = item == null ? null : item.get("set_p");
        if (settings == null || !settings.hasM()) {
            return Map.of();
        }
        return settings.m().entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey, entry -> entry.getValue().s()));
    }
}
