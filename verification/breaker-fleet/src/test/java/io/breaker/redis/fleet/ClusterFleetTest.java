package io.breaker.redis.fleet;

import io.breaker.redis.RedisCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.breaker.redis.fleet.FleetInstance.CONFIG_PATH;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production topology with Redis Cluster: two separate JVM processes of {@link FleetInstance}
 * on a cluster of three masters, each owning a third of the slots. Every key of the breaker, its
 * settings included, lives in the slot of its hash tag; the fleet trips within the usual bound,
 * probes once per wait, and a settings change reaches every instance.
 */
class ClusterFleetTest {

    @RegisterExtension
    static final RedisCluster cluster = new RedisCluster();

    private static final String TAG = "{breaker:" + FleetInstance.BREAKER + "}";
    private static final Pattern SLOW_CALL_RATE =
            Pattern.compile("\"slow-call-rate-threshold\":\\{\"value\":([-0-9.Ee]+)");

    @Test
    void aFleetOnAThreeMasterClusterTripsProbesAndSharesItsSettings() throws Exception {
        FleetSettings settings = FleetSettings.sharedThroughRedis(2, Duration.ofSeconds(3), Duration.ofMillis(250));
        List<RoundResult> results = new ArrayList<>();
        int[] ports = cluster.ports();
        try (Dependency dependency = new Dependency();
                FleetProcesses fleet = FleetProcesses.start(
                        settings,
                        ports[0],
                        dependency::uri,
                        Path.of("target", "cluster-fleet-logs"),
                        List.of(
                                "--spring.data.redis.cluster.nodes=" + cluster.nodes(),
                                "--breakers.store.state-cache-ttl=300ms"));
                Callers callers = new Callers(fleet)) {
            HttpResponse<String> changed = fleet.send(0, "POST", CONFIG_PATH, "{\"slow-call-rate-threshold\": 90}");
            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(changed.body()).contains("\"fleetChanged\":true");

            RoundRunner runner = new RoundRunner(settings, fleet, callers, dependency, null);
            results.add(runner.run("round 1", null));

            int owner = cluster.portOf(TAG + ":settings");
            assertThat(cluster.command(owner, "HGET", TAG + ":settings", "p:slow-call-rate-threshold"))
                    .contains("90");
            assertThat(cluster.command(owner, "EXISTS", TAG + ":state"))
                    .as("the state beside the settings")
                    .startsWith(":1");
            for (int i = 0; i < fleet.size(); i++) {
                fleet.send(i, "GET", "/call", null);
                Matcher value = SLOW_CALL_RATE.matcher(
                        fleet.send(i, "GET", CONFIG_PATH, null).body());
                assertThat(value.find()).isTrue();
                assertThat(Float.parseFloat(value.group(1)))
                        .as("instance %d's slow-call-rate-threshold", i)
                        .isEqualTo(90f);
            }
        } finally {
            System.out.println(FleetReport.markdown(settings, results, Instant.now(), Duration.ZERO));
        }
        assertThat(results.stream().flatMap(result -> result.misses(settings).stream()))
                .as("fleet goals missed")
                .isEmpty();
    }
}
