package io.breaker.redis.fleet;

import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.breaker.redis.fleet.FleetInstance.BREAKER_PATH;
import static io.breaker.redis.fleet.FleetInstance.CONFIG_PATH;
import static io.breaker.redis.fleet.FleetProcesses.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Settings changed at runtime through one instance's endpoint reach the other instances of the fleet
 * (two separate JVM processes of {@link FleetInstance} sharing one real store, driven over HTTP only),
 * and so does the return to the configured values; an instance started later picks them up too. One
 * subclass per store: {@link RuntimeSettingsFleetTest} (redis-server), {@link DynamoRuntimeSettingsFleetTest}
 * (a table of dynalite, DynamoDB's API); each gives its store's fixture and what differs by store.
 */
abstract class RuntimeSettingsFleet {

    private static final Duration CACHE_TTL = Duration.ofMillis(300);
    /**
     * A change is seen at an instance's first call after one cache TTL, once the refresh that call
     * started has answered; the rest is slack for a busy machine (separate JVMs on 2 shared cores
     * answered one refresh 2.8 s after the change while other builds ran).
     */
    private static final Duration SEEN_WITHIN = CACHE_TTL.plusMillis(4_700);
    /**
     * How long a change may take to be seen when the store answered some refresh after its timeout
     * (a starved JVM: at a load average of 26 on 2 cores, one instance had not seen a change after
     * 5 s, its refreshes answering late). Beyond {@link #SEEN_WITHIN} only with such a late answer.
     */
    private static final Duration SEEN_WITHIN_LATE_ANSWERS = Duration.ofSeconds(30);
    /** The pause between polls of an await. */
    private static final Duration POLL = Duration.ofMillis(5);

    private static final Pattern THRESHOLD =
            Pattern.compile("\"failure-rate-threshold\"\\s*:\\s*\\{\\s*\"value\"\\s*:\\s*([-0-9.Ee]+)");

    /** A fleet of {@code instances} sharing the breaker through this store. */
    abstract FleetSettings settings(int instances, Duration openWait, Duration storeTimeout);

    /** Where the instances find the store, started by the subclass's fixture. */
    abstract StoreAddress store();

    /** The store's type as the endpoint shows it ({@code "store":{"type":...}}). */
    abstract String storeType();

    /** What the endpoint's refusal of a wait the store's keys or item would not outlive says. */
    abstract String tooLongWaitRefusal();

    @Test
    void aChangeThroughOneInstanceReachesTheFleetAndSoDoesItsReturn() throws Exception {
        // The configured threshold is the harness's, FleetSettings.FAILURE_RATE_THRESHOLD (50).
        FleetSettings settings = settings(2, Duration.ofSeconds(5), Duration.ofMillis(250));
        try (Dependency dependency = new Dependency();
                FleetProcesses fleet = FleetProcesses.start(
                        settings,
                        store(),
                        dependency::uri,
                        Path.of("target", "runtime-settings-fleet-logs", storeType()),
                        List.of("--breakers.store.state-cache-ttl=" + CACHE_TTL.toMillis() + "ms"))) {
            await(Duration.ofSeconds(20), POLL, () -> "instance 1 to call its dependency", () -> fleet.call(1) == 200);

            long late = fleet.storeTimeouts();
            HttpResponse<String> changed = fleet.send(
                    0,
                    "POST",
                    CONFIG_PATH,
                    "{\"failure-rate-threshold\": 30, \"wait-duration-in-open-state\": \"10s\"}");

            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(changed.body()).contains("\"shared\":true");
            assertFleetChanged(fleet, changed, late, 1);
            // Instance 1 learns it at its first call after one cache TTL (300 ms).
            awaitThreshold(fleet, 1, 30f, SEEN_WITHIN);
            assertThat(fleet.send(1, "GET", CONFIG_PATH, null).body())
                    .contains(
                            "\"version\":1",
                            "\"failure-rate-threshold\":{\"value\":30.0,\"source\":\"RUNTIME\",\"configured\":50.0}",
                            "\"wait-duration-in-open-state\":{\"value\":\"PT10S\",\"source\":\"RUNTIME\"");
            assertThat(fleet.send(1, "GET", BREAKER_PATH, null).body())
                    .contains(
                            "\"store\":{\"type\":\"" + storeType() + "\"",
                            "\"settingsChanges\":[{",
                            "\"settings\":{\"failure-rate-threshold\":\"30\",\"wait-duration-in-open-state\":\"10s\"}");

            int third = fleet.startOneMore(); // a third instance, started after the change
            awaitThreshold(fleet, third, 30f, Duration.ofSeconds(5));

            HttpResponse<String> tooLong =
                    fleet.send(0, "POST", CONFIG_PATH, "{\"wait-duration-in-open-state\": \"8d\"}");
            assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(400);
            assertThat(tooLong.body()).contains(tooLongWaitRefusal());
            assertThat(threshold(fleet, 0)).isEqualTo(30f);
            assertThat(fleet.send(0, "GET", CONFIG_PATH, null).body()).contains("\"version\":1");

            late = fleet.storeTimeouts();
            HttpResponse<String> reset = fleet.send(1, "DELETE", CONFIG_PATH, null);

            assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
            assertFleetChanged(fleet, reset, late, 2);
            awaitThreshold(fleet, 0, 50f, SEEN_WITHIN);
            awaitThreshold(fleet, third, 50f, SEEN_WITHIN);
            assertThat(fleet.send(0, "GET", CONFIG_PATH, null).body())
                    .contains("\"version\":2", "\"failure-rate-threshold\":{\"value\":50.0,\"source\":\"YAML\"");
        }
    }

    /**
     * The change's answer says the fleet took it as version {@code version}; or, if the store answered
     * after its timeout (on a loaded machine, the first change of a new JVM can), that it cannot tell:
     * {@code unknown}, and only with one more operation a caller stopped waiting for. Whether the fleet
     * applied it is what the awaits after each change check.
     */
    private static void assertFleetChanged(
            FleetProcesses fleet, HttpResponse<String> answer, long timeoutsBefore, int version) throws Exception {
        if (answer.body().contains("\"fleetChanged\":\"unknown\"")) {
            assertThat(fleet.storeTimeouts())
                    .as("an unknown answer is a late one: %s", answer.body())
                    .isGreaterThan(timeoutsBefore);
        } else {
            assertThat(answer.body()).contains("\"fleetChanged\":true", "\"version\":" + version);
        }
    }

    /** The failure-rate threshold instance {@code i} applies, from its {@code config} endpoint; NaN if unreadable. */
    private static float threshold(FleetProcesses fleet, int instance) {
        HttpResponse<String> config = fleet.send(instance, "GET", CONFIG_PATH, null);
        Matcher value = THRESHOLD.matcher(config.body());
        return config.statusCode() == 200 && value.find() ? Float.parseFloat(value.group(1)) : Float.NaN;
    }

    /**
     * Calls instance {@code i} until its threshold is {@code expected}: within {@code within}, or later
     * only if the store answered some operation after its timeout meanwhile (then at most
     * {@link #SEEN_WITHIN_LATE_ANSWERS}).
     */
    private static void awaitThreshold(FleetProcesses fleet, int instance, float expected, Duration within)
            throws Exception {
        float[] last = {Float.NaN};
        long lateBefore = fleet.storeTimeouts();
        long start = System.nanoTime();
        await(
                SEEN_WITHIN_LATE_ANSWERS,
                POLL,
                () -> "instance " + instance + " to apply failure-rate-threshold " + expected
                        + " at its calls (it applies " + last[0] + ")",
                () -> fleet.call(instance) == 200 && (last[0] = threshold(fleet, instance)) == expected);
        long tookMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        if (tookMillis > within.toMillis()) {
            assertThat(fleet.storeTimeouts())
                    .as(
                            "instance %d applied failure-rate-threshold %s after %d ms, more than %d ms, "
                                    + "with no store answer late meanwhile",
                            instance, expected, tookMillis, within.toMillis())
                    .isGreaterThan(lateBefore);
        }
    }
}
