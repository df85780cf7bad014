package io.breaker.redis.fleet;

import io.breaker.redis.RedisSentinel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.breaker.redis.fleet.FleetInstance.CONFIG_PATH;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production topology with Redis Sentinel: two separate JVM processes of {@link FleetInstance}
 * connected through three sentinels to a master with one replica. The master is killed while the
 * fleet is OPEN and traffic flows; the sentinels promote the replica. The fleet keeps protecting: no
 * caller sees an error, at most one probe per wait window once the new master is named, and the next
 * trip stays within the usual bound. Settings changed at runtime before the failover are the same on
 * every instance, and on the new master, after it.
 */
class SentinelFailoverFleetTest {

    @RegisterExtension
    static final RedisSentinel sentinel = new RedisSentinel();

    private static final String HASH = "{breaker:" + FleetInstance.BREAKER + "}:settings";
    private static final Pattern SLOW_CALL_RATE =
            Pattern.compile("\"slow-call-rate-threshold\":\\{\"value\":([-0-9.Ee]+)");

    @Test
    void theFleetKeepsProtectingAndAgreesOnItsSettingsThroughAFailover() throws Exception {
        FleetSettings settings = FleetSettings.sharedThroughRedis(2, Duration.ofSeconds(3), Duration.ofMillis(250));
        List<RoundResult> results = new ArrayList<>();
        try (Dependency dependency = new Dependency();
                FleetProcesses fleet = FleetProcesses.start(
                        settings,
                        sentinel.masterPort(),
                        dependency::uri,
                        Path.of("target", "sentinel-fleet-logs"),
                        List.of(
                                "--spring.data.redis.sentinel.master=" + RedisSentinel.MASTER,
                                "--spring.data.redis.sentinel.nodes=" + sentinel.nodes(),
                                "--breakers.store.state-cache-ttl=300ms"));
                Callers callers = new Callers(fleet)) {
            // A setting that does not move the round's bounds, changed for the fleet before the failover.
            HttpResponse<String> changed = fleet.send(0, "POST", CONFIG_PATH, "{\"slow-call-rate-threshold\": 90}");
            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(changed.body()).contains("\"fleetChanged\":true");

            RoundRunner runner = new RoundRunner(settings, fleet, callers, dependency, StoreFaults.of(sentinel));
            results.add(runner.run("master killed while OPEN", Fault.FAILOVER));
            results.add(runner.run("a round on the new master", null));

            assertThat(sentinel.masterPort()).isEqualTo(sentinel.replicaPort());
            String hash = sentinel.command(sentinel.replicaPort(), "HGET", HASH, "p:slow-call-rate-threshold");
            assertThat(hash).as("the fleet's settings on the new master").contains("90");
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
            System.out.println(FleetReport.markdown(settings, results, java.time.Instant.now(), Duration.ZERO));
        }
        assertThat(results.stream().flatMap(result -> result.misses(settings).stream()))
                .as("fleet goals missed")
                .isEmpty();
    }
}
