package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.breaker.redis.fleet.FleetInstance.BREAKER_PATH;
import static io.breaker.redis.fleet.FleetInstance.CONFIG_PATH;
import static io.breaker.redis.fleet.FleetProcesses.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults set through one instance's settings endpoint reach the other instances of the fleet (two
 * separate JVM processes of {@link FleetInstance} on one real redis-server, driven over HTTP only),
 * and those inject them: the instance that never had its endpoint called fails its calls with the
 * injected exception while the dependency, healthy throughout, gets no request from it. Turning the
 * faults off through the other instance reaches the first. No assertion on time: each step is
 * awaited, within a limit generous for a loaded machine.
 */
@Tag(BootLine.TAG)
class FaultsFleetTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String INJECTED = "\"fault-failure-rate\":{\"value\":100.0,\"source\":\"RUNTIME\"";
    private static final String NONE = "\"fault-failure-rate\":{\"value\":0.0,";

    @Test
    void faultsSetThroughOneInstanceAreInjectedByTheOthers() throws Exception {
        FleetSettings settings = FleetSettings.sharedThroughRedis(2, Duration.ofSeconds(5), Duration.ofMillis(250));
        try (Dependency dependency = new Dependency();
                FleetProcesses fleet = FleetProcesses.start(
                        settings,
                        redis.port(),
                        dependency::uri,
                        Path.of("target", "faults-fleet-logs"),
                        List.of("--breakers.store.state-cache-ttl=300ms"))) {
            await(WITHIN, () -> "instance 1 to call its dependency", () -> fleet.call(1) == 200);

            HttpResponse<String> changed = fleet.send(0, "POST", CONFIG_PATH, "{\"fault-failure-rate\": 100}");

            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(changed.body()).contains("\"shared\":true", INJECTED);
            // Instance 1 takes the fleet's settings at a call after one cache TTL.
            await(
                    WITHIN,
                    () -> "instance 1 to apply the faults",
                    () -> fleet.call(1) > 0 && config(fleet, 1).contains(INJECTED));
            long applied = System.nanoTime();
            for (int i = 0; i < 5; i++) {
                assertThat(fleet.call(1))
                        .as("an injected failure (500) or, once tripped, a rejection (503)")
                        .isIn(500, 503);
            }

            assertThat(dependency.arrivals(applied, System.nanoTime()))
                    .as("requests of instance 1 once it injects")
                    .noneMatch(arrival -> arrival.instance() == 1);
            assertThat(fleet.send(1, "GET", BREAKER_PATH, null).body())
                    .contains(
                            "\"faults\":{\"failureRate\":100.0,\"exception\":\"io.breaker.InjectedFaultException\"",
                            "\"lastFailureType\":\"io.breaker.InjectedFaultException\"",
                            "\"fault-failure-rate\":\"100\"");

            HttpResponse<String> off = fleet.send(1, "DELETE", CONFIG_PATH, null);

            assertThat(off.statusCode()).as(off.body()).isEqualTo(200);
            await(
                    WITHIN,
                    () -> "instance 0 to turn the faults off",
                    () -> fleet.call(0) > 0 && config(fleet, 0).contains(NONE));
            assertThat(fleet.send(0, "GET", BREAKER_PATH, null).body()).doesNotContain("\"faults\":{");
        }
    }

    private static String config(FleetProcesses fleet, int instance) {
        return fleet.send(instance, "GET", CONFIG_PATH, null).body();
    }
}
