package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.breaker.redis.fleet.FleetInstance.BREAKER_PATH;
import static io.breaker.redis.fleet.FleetInstance.CONFIG_PATH;
import static io.breaker.redis.fleet.FleetProcesses.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

/**
 * Settings changed at runtime never diverge across the fleet: two separate JVM processes of
 * {@link FleetInstance} on one real redis-server, driven over HTTP only, while Redis is restarted
 * empty, paused, or written by someone else, and while two operators change settings at once. The
 * two instances are started once for the class; each test starts from the configured settings.
 */
class SharedSettingsFleetTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final String HASH = "{breaker:" + FleetInstance.BREAKER + "}:settings";
    private static final Duration CACHE_TTL = Duration.ofMillis(300);
    private static final Duration STORE_TIMEOUT = Duration.ofMillis(250);
    /** One cache TTL, one round trip, and slack for separate JVMs on 2 shared cores. */
    private static final Duration SEEN_WITHIN = Duration.ofSeconds(8);

    private static Dependency dependency;
    private static FleetProcesses fleet;

    @BeforeAll
    static void startFleet() throws Exception {
        dependency = new Dependency();
        fleet = FleetProcesses.start(
                FleetSettings.sharedThroughRedis(2, Duration.ofSeconds(5), STORE_TIMEOUT),
                redis.port(),
                dependency::uri,
                Path.of("target", "shared-settings-fleet-logs"),
                List.of("--breakers.store.state-cache-ttl=" + CACHE_TTL.toMillis() + "ms"));
    }

    @AfterAll
    static void stopFleet() {
        if (fleet != null) {
            fleet.close();
        }
        if (dependency != null) {
            dependency.close();
        }
    }

    /** Every test starts with Redis up, the breaker closed and the configured settings on both instances. */
    @BeforeEach
    void configuredSettingsEverywhere() throws InterruptedException {
        dependency.healthy();
        fleet.awaitStoreReachable("Redis", Duration.ofSeconds(20));
        HttpResponse<String> released = fleet.send(0, "POST", BREAKER_PATH, "{\"state\":\"AUTO\"}");
        assertThat(released.statusCode()).as(released.body()).isEqualTo(200);
        HttpResponse<String> reset = retryingConflicts(() -> fleet.send(0, "DELETE", CONFIG_PATH, null));
        assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
        for (int i = 0; i < fleet.size(); i++) {
            fleet.awaitSettingValue(i, "sliding-window-size", "10", SEEN_WITHIN);
            fleet.awaitSettingValue(i, "failure-rate-threshold", "50.0", SEEN_WITHIN);
            fleet.awaitSettingValue(i, "wait-duration-in-open-state", "\"PT5S\"", SEEN_WITHIN);
        }
        // A refresh those calls started may still be reading; a test that needs an instance not to have
        // seen its next change must not race with it.
        Thread.sleep(1000);
    }

    /**
     * Redis restarted without persistence loses the settings' hash and would number versions from 1
     * again: every instance must still end with the fleet's settings, and the shared breaker must
     * still trip (diverged window sizes make the instances restart the shared window in turn).
     */
    @Test
    void afterRedisLostTheSettingsTheNextChangeReachesEveryInstanceAndTheBreakerStillTrips() throws Exception {
        HttpResponse<String> twenty = fleet.send(0, "POST", CONFIG_PATH, "{\"sliding-window-size\": 20}");
        assertThat(twenty.statusCode()).as(twenty.body()).isEqualTo(200);
        fleet.awaitSettingValue(1, "sliding-window-size", "20", SEEN_WITHIN);

        redis.kill();
        redis.start(); // on the same port, empty: persistence is off
        fleet.awaitStoreReachable("Redis again", Duration.ofSeconds(20));

        // The first instance to find the settings gone puts back what it remembers under a new epoch;
        // a change based on the old one is refused with those (409) and made again, as an operator would.
        fleet.changeUntilTheFleetTookIt(0, "{\"sliding-window-size\": 10}");
        String converged = awaitConverged("sliding-window-size");
        long lateBefore = fleet.storeTimeouts();
        int calls = failingCallsUntilEveryInstanceRejects(40);
        long late = fleet.storeTimeouts() - lateBefore;
        Map<String, String> hash = fleetHash();
        assertSoftly(softly -> {
            softly.assertThat((long) calls)
                    .as("failing calls that reached the dependency (%d answers came late)", late)
                    .isLessThanOrEqualTo(tripBound() + late + fleet.size());
            softly.assertThat(converged)
                    .as("the instances' settings against the fleet's")
                    .isNull();
        });
        assertThat(hash).containsEntry("p:sliding-window-size", "10");
    }

    /**
     * Two operators change different settings on two instances, seconds apart, the second instance not
     * having seen the first change yet: neither change is lost, the stale one is refused with the
     * fleet's settings (409) and works when made again.
     */
    @Test
    void aChangeOnAStaleInstanceIsRefusedWithTheFleetsSettingsAndLosesNothing() throws Exception {
        HttpResponse<String> first = fleet.send(0, "POST", CONFIG_PATH, "{\"failure-rate-threshold\": 30}");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);

        // Instance 1 has had no call since: it has not refreshed, so its view is the one before.
        HttpResponse<String> stale = fleet.send(1, "POST", CONFIG_PATH, "{\"wait-duration-in-open-state\": \"10s\"}");

        assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
        assertThat(stale.body()).contains("\"failure-rate-threshold\":{\"value\":30.0");
        HttpResponse<String> again = fleet.send(1, "POST", CONFIG_PATH, "{\"wait-duration-in-open-state\": \"10s\"}");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        for (int i = 0; i < fleet.size(); i++) {
            fleet.awaitSettingValue(i, "failure-rate-threshold", "30.0", SEEN_WITHIN);
            fleet.awaitSettingValue(i, "wait-duration-in-open-state", "\"PT10S\"", SEEN_WITHIN);
        }
        assertThat(fleetHash())
                .containsEntry("p:failure-rate-threshold", "30")
                .containsEntry("p:wait-duration-in-open-state", "10s");
    }

    /**
     * The store took the change but answered after the timeout: the answer cannot say whether the
     * fleet changed, so it says {@code unknown}, and the fleet applies the change all the same.
     */
    @Test
    void aChangeWhoseAnswerCameTooLateIsAnsweredUnknownAndStillReachesTheFleet() throws Exception {
        redis.pause();
        HttpResponse<String> changed;
        try {
            changed = fleet.send(0, "POST", CONFIG_PATH, "{\"failure-rate-threshold\": 35}");
        } finally {
            redis.resume();
        }

        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(changed.body()).contains("\"fleetChanged\":\"unknown\"");
        assertThat(log(0)).contains("settings={failure-rate-threshold=35}").contains("fleetChanged=unknown");
        for (int i = 0; i < fleet.size(); i++) {
            fleet.awaitSettingValue(i, "failure-rate-threshold", "35.0", SEEN_WITHIN);
        }
        assertThat(fleetHash()).containsEntry("p:failure-rate-threshold", "35");
    }

    /**
     * A change made while Redis cannot be reached stays on its instance and takes no fleet version:
     * the fleet's next change reaches that instance too, and the fleet's settings win over it.
     */
    @Test
    void aChangeMadeWhileRedisIsDownTakesNoFleetVersionAndTheFleetWinsWhenItIsBack() throws Exception {
        redis.pause();
        HttpResponse<String> alone;
        try {
            await(Duration.ofSeconds(20), () -> "instance 0 to take Redis as down", () -> {
                fleet.call(0);
                return fleet.send(0, "GET", BREAKER_PATH, null).body().contains("\"reachable\":false");
            });
            alone = fleet.send(0, "POST", CONFIG_PATH, "{\"failure-rate-threshold\": 40}");
        } finally {
            redis.resume();
        }
        assertThat(alone.statusCode()).as(alone.body()).isEqualTo(200);
        assertThat(alone.body()).contains("\"fleetChanged\":false", "\"failure-rate-threshold\":{\"value\":40.0");
        fleet.awaitStoreReachable("Redis again", Duration.ofSeconds(20));

        HttpResponse<String> fleetChange = retryingConflicts(
                () -> fleet.send(1, "POST", CONFIG_PATH, "{\"wait-duration-in-open-state\": \"10s\"}"));

        assertThat(fleetChange.statusCode()).as(fleetChange.body()).isEqualTo(200);
        for (int i = 0; i < fleet.size(); i++) {
            fleet.awaitSettingValue(i, "wait-duration-in-open-state", "\"PT10S\"", SEEN_WITHIN);
            fleet.awaitSettingValue(i, "failure-rate-threshold", "50.0", SEEN_WITHIN);
        }
    }

    /**
     * Whoever can write the breaker's keys cannot make an instance apply what its endpoint refuses, nor
     * forge a line of its log.
     */
    @Test
    void settingsWrittenToRedisByHandAreCheckedAsAPostIs() throws Exception {
        // A wait the endpoint refuses (the keys would expire while OPEN), and a principal that would
        // start a forged log line.
        redis.command(
                "HSET",
                HASH,
                "epoch",
                "written-by-hand",
                "version",
                "99",
                "p:wait-duration-in-open-state",
                "8d",
                "principal",
                "mallory\\r\\nWARN forged line");
        for (int i = 0; i < fleet.size(); i++) {
            int instance = i;
            await(SEEN_WITHIN, () -> "instance " + instance + " to refuse the settings written by hand", () -> {
                fleet.call(instance);
                return log(instance).contains("breakers.store.key-expiry must be longer than");
            });
            assertThat(fleet.send(i, "GET", CONFIG_PATH, null).body())
                    .contains("\"wait-duration-in-open-state\":{\"value\":\"PT5S\"");
            assertThat(log(i))
                    .contains("principal=mallory\\r\\nWARN forged line")
                    .doesNotContain("\nWARN forged line");
        }
    }

    /** Setting what is set, or deleting twice, changes nothing: no version, no audit line, nothing written. */
    @Test
    void aChangeThatChangesNothingIsNoChange() throws Exception {
        HttpResponse<String> sixty = fleet.send(0, "POST", CONFIG_PATH, "{\"failure-rate-threshold\": 60}");
        assertThat(sixty.statusCode()).as(sixty.body()).isEqualTo(200);
        fleet.awaitSettingValue(1, "failure-rate-threshold", "60.0", SEEN_WITHIN);
        String version = version(0);
        long audits = auditLines(0) + auditLines(1);

        HttpResponse<String> same = fleet.send(1, "POST", CONFIG_PATH, "{\"failure-rate-threshold\": 60}");

        assertThat(same.statusCode()).as(same.body()).isEqualTo(200);
        assertThat(same.body()).contains("\"changed\":false", "\"version\":" + version);
        assertThat(fleetHash()).containsEntry("version", version);

        HttpResponse<String> reset = fleet.send(0, "DELETE", CONFIG_PATH, null);
        assertThat(reset.body()).contains("\"changed\":true");
        fleet.awaitSettingValue(1, "failure-rate-threshold", "50.0", SEEN_WITHIN);
        String after = version(0);
        HttpResponse<String> again = fleet.send(1, "DELETE", CONFIG_PATH, null);

        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).contains("\"changed\":false", "\"version\":" + after);
        assertThat(auditLines(0) + auditLines(1)).isEqualTo(audits + 1);
        assertThat(fleetHash()).containsEntry("version", after);
    }

    /**
     * Redis is restarted empty while two operators change different settings on the two instances at
     * once: afterwards every instance has the fleet's settings, both changes among them, and a failing
     * dependency still trips the shared breaker within the usual bound.
     */
    @Test
    void twoOperatorsChangingSettingsWhileRedisRestartsEmptyEndWithOneFleetThatTrips() throws Exception {
        HttpResponse<String> before = fleet.send(0, "POST", CONFIG_PATH, "{\"minimum-number-of-calls\": 6}");
        assertThat(before.statusCode()).as(before.body()).isEqualTo(200);
        fleet.awaitSettingValue(1, "minimum-number-of-calls", "6", SEEN_WITHIN);

        redis.kill();
        redis.start();
        CompletableFuture<HttpResponse<String>> alice = CompletableFuture.supplyAsync(
                () -> retryingConflicts(() -> fleet.send(0, "POST", CONFIG_PATH, "{\"sliding-window-size\": 20}")));
        CompletableFuture<HttpResponse<String>> bob = CompletableFuture.supplyAsync(
                () -> retryingConflicts(() -> fleet.send(1, "POST", CONFIG_PATH, "{\"failure-rate-threshold\": 40}")));
        HttpResponse<String> aliceAnswer = alice.get();
        HttpResponse<String> bobAnswer = bob.get();
        fleet.awaitStoreReachable("Redis again", Duration.ofSeconds(20));
        // A change made while the instance still took Redis as down stayed local: make it again.
        aliceAnswer = againIfLocal(0, aliceAnswer, "{\"sliding-window-size\": 20}");
        bobAnswer = againIfLocal(1, bobAnswer, "{\"failure-rate-threshold\": 40}");

        assertThat(aliceAnswer.statusCode()).as(aliceAnswer.body()).isEqualTo(200);
        assertThat(bobAnswer.statusCode()).as(bobAnswer.body()).isEqualTo(200);
        String converged = awaitConverged("sliding-window-size", "failure-rate-threshold", "minimum-number-of-calls");
        long lateBefore = fleet.storeTimeouts();
        int calls = failingCallsUntilEveryInstanceRejects(40);
        long late = fleet.storeTimeouts() - lateBefore;
        Map<String, String> hash = fleetHash();
        assertSoftly(softly -> {
            softly.assertThat((long) calls)
                    .as("failing calls that reached the dependency (%d answers came late)", late)
                    .isLessThanOrEqualTo(tripBound() + late + fleet.size());
            softly.assertThat(converged)
                    .as("the instances' settings against the fleet's")
                    .isNull();
            softly.assertThat(hash)
                    .containsEntry("p:sliding-window-size", "20")
                    .containsEntry("p:failure-rate-threshold", "40");
        });
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static HttpResponse<String> againIfLocal(int instance, HttpResponse<String> answer, String change) {
        if (answer.statusCode() == 200 && !answer.body().contains("\"fleetChanged\":true")) {
            return retryingConflicts(() -> fleet.send(instance, "POST", CONFIG_PATH, change));
        }
        return answer;
    }

    /** A change refused because the instance's view was stale is made again, as an operator would. */
    private static HttpResponse<String> retryingConflicts(Supplier<HttpResponse<String>> change) {
        HttpResponse<String> answer = change.get();
        for (int attempt = 0; attempt < 3 && answer.statusCode() == 409; attempt++) {
            answer = change.get();
        }
        return answer;
    }

    /**
     * Makes failing calls, alternating between the instances, until both reject or {@code limit}
     * calls were made; returns how many reached the dependency.
     *
     * <p>Redis's restart and the change of the window's size each started a new shared window, and a
     * failure an instance reports against a window it has not heard of yet is dropped; its answer
     * names the new window, so each instance loses at most one failure this way (the bound adds one
     * per instance). Healthy calls first let each instance refresh; a refresh is started by a success
     * after one cache TTL, but after fast traffic only every few successes look at the clock, so they
     * may not: the bound does not rely on them. A fleet whose instances disagreed on the window's size
     * would restart the window at every other report and never trip.
     */
    private static int failingCallsUntilEveryInstanceRejects(int limit) throws InterruptedException {
        for (int refresh = 0; refresh < 2; refresh++) {
            Thread.sleep(CACHE_TTL.toMillis() + 100);
            for (int i = 0; i < fleet.size(); i++) {
                fleet.call(i);
            }
        }
        Thread.sleep(CACHE_TTL.toMillis());
        long from = dependency.failing();
        boolean[] rejecting = new boolean[fleet.size()];
        for (int made = 0; made < limit && !all(rejecting); made++) {
            int instance = made % fleet.size();
            rejecting[instance] = fleet.call(instance) == 503;
        }
        int reached = dependency.arrivals(from, System.nanoTime()).size();
        dependency.healthy();
        return reached;
    }

    /** The minimum number of calls of the fleet's settings, plus one call under way on the other instance. */
    private static int tripBound() {
        int minimum = Integer.parseInt(fleet.settingValue(0, "minimum-number-of-calls"));
        return minimum + fleet.size() - 1;
    }

    private static boolean all(boolean[] values) {
        for (boolean value : values) {
            if (!value) {
                return false;
            }
        }
        return true;
    }

    /**
     * Calls every instance until each applies the fleet's value of each setting (from Redis's hash, or
     * the configured value where the hash has none); returns what differs after {@link #SEEN_WITHIN},
     * or null when they agree.
     */
    private static String awaitConverged(String... properties) throws IOException {
        long end = System.nanoTime() + SEEN_WITHIN.toNanos();
        String difference;
        do {
            Map<String, String> hash = fleetHash();
            difference = null;
            for (int i = 0; i < fleet.size() && difference == null; i++) {
                fleet.call(i);
                String body = fleet.send(i, "GET", CONFIG_PATH, null).body();
                for (String property : properties) {
                    String fleetValue = hash.get("p:" + property);
                    String shown = FleetProcesses.settingValue(body, property);
                    String expected = fleetValue != null ? fleetValue : configured(body, property);
                    if (shown == null
                            || expected == null
                            || Double.parseDouble(shown) != Double.parseDouble(expected)) {
                        difference = "instance " + i + " applies " + property + "=" + shown + " while the fleet's is "
                                + expected + " (Redis holds " + hash + ")";
                        break;
                    }
                }
            }
        } while (difference != null && System.nanoTime() < end);
        return difference;
    }

    /** Redis's hash of the breaker's settings, field to value. */
    private static Map<String, String> fleetHash() throws IOException {
        String reply = redis.command("HGETALL", HASH);
        List<String> words = new ArrayList<>();
        String[] lines = reply.split("\r\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("$") && i + 1 < lines.length) {
                words.add(lines[++i]);
            }
        }
        Map<String, String> hash = new LinkedHashMap<>();
        for (int i = 0; i + 1 < words.size(); i += 2) {
            hash.put(words.get(i), words.get(i + 1));
        }
        return hash;
    }

    private static String version(int instance) {
        Matcher version = Pattern.compile("\"version\":(\\d+)")
                .matcher(fleet.send(instance, "GET", CONFIG_PATH, null).body());
        assertThat(version.find()).isTrue();
        return version.group(1);
    }

    private static String configured(String body, String property) {
        Matcher value = Pattern.compile(
                        "\"" + Pattern.quote(property) + "\":\\{\"value\":[^}]*\"configured\":(\"[^\"]*\"|[-0-9.Ee]+)")
                .matcher(body);
        return value.find() ? value.group(1) : null;
    }

    private static String log(int instance) {
        try {
            return Files.readString(Path.of("target", "shared-settings-fleet-logs", "instance-" + instance + ".log"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long auditLines(int instance) throws IOException {
        try (Stream<String> lines =
                Files.lines(Path.of("target", "shared-settings-fleet-logs", "instance-" + instance + ".log"))) {
            return lines.filter(line -> line.contains("io.breaker.operator") && line.contains(" WARN "))
                    .count();
        }
    }
}
