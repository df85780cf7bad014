package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet's promise, end to end: N separate JVM processes of a consumer application share one
 * breaker through one real redis-server, and the fleet must behave as one breaker would. Per round
 * it measures the calls that reach a failing dependency before every instance stops, the probes per
 * wait window and the recovery; then it injects faults into Redis under the running fleet.
 *
 * <p>The default is the short run (3 instances, 3 rounds, Redis restarted empty while OPEN); see
 * {@link FleetSettings} for the properties of the full run. The report goes to
 * {@code target/fleet-report.md} and to standard output, before the goals are asserted; what each
 * round cost (Redis commands per instance and second, each instance's memory) also goes to
 * {@code target/fleet-costs-<store>.md}, a table that {@code run-scale.sh} puts together for both stores.
 */
class FleetOfProcessesTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Test
    void theFleetStopsTogetherProbesOncePerWaitAndSurvivesRedisFaults() throws Exception {
        FleetSettings settings = FleetSettings.fromSystemProperties();
        FleetRun run = FleetRun.run(
                settings,
                StoreAddress.redis(redis.port()),
                StoreFaults.of(redis),
                (label, fleet, period) -> FleetCost.measure(label, fleet, redis, period));

        if (settings.asserting()) {
            assertThat(run.misses(settings))
                    .as("fleet goals missed (report in target/fleet-report.md)")
                    .isEmpty();
        }
        // Whatever the goals: every trip an instance logged is explained by the numbers it logged.
        assertThat(run.untrueTrips())
                .as("trip lines whose rate is below their threshold")
                .isEmpty();
    }
}
