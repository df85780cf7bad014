package io.breaker.redis;

import io.breaker.redis.app.FleetApplication;
import io.breaker.redis.app.FleetApplication.Dependency;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static io.breaker.redis.Fleet.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code breakers} endpoint of a breaker shared through Redis: it says the breaker is shared and
 * whether Redis answers, a force says whether the fleet changed, and a Redis outage under
 * {@code failure-mode: reject} shows as {@code STORE_UNAVAILABLE}, never as {@code FAILURE_RATE}.
 */
@Tag(BootLine.TAG)
class BreakersEndpointWithRedisTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static ConfigurableApplicationContext application;

    @BeforeAll
    static void start() {
        application = new SpringApplicationBuilder(FleetApplication.class)
                .properties(
                        "server.port=0",
                        "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + redis.port(),
                        "management.endpoints.web.exposure.include=breakers",
                        "breakers.store.type=redis",
                        // A store timeout a loaded machine meets: every answer below is Redis's own, in time.
                        "breakers.store.state-cache-ttl=2s",
                        "breakers.store.timeout=1s",
                        "breakers.store.failure-mode=reject")
                .run();
    }

    @AfterAll
    static void stop() {
        if (application != null) {
            application.close();
        }
    }

    @Test
    void showsTheStoreAnswersWhetherTheFleetChangedAndBlamesTheStoreForItsOutage() throws Exception {
        Dependency.FAILING.set(false);
        await(
                Duration.ofSeconds(20),
                () -> get("/days").statusCode() == 200 && breaker().contains("\"reachable\":true"));
        assertThat(breaker())
                .contains(
                        "\"shared\":true",
                        "\"store\":{\"type\":\"redis\",\"reachable\":true,\"actingAlone\":false,\"failureMode\":\"reject\"}");
        assertThat(breaker()).containsPattern("\"fleet\":\\{\"state\":\"CLOSED\",\"age\":\"PT[0-9.]+S\"}");

        assertThat(force("OPEN")).contains("\"state\":\"FORCED_OPEN\"", "\"changed\":true", "\"fleetChanged\":true");
        assertThat(breaker())
                .as("the fleet's state in Redis's answer to the force")
                .contains("\"fleet\":{\"state\":\"FORCED_OPEN\"");
        assertThat(force("OPEN")).contains("\"changed\":false", "\"fleetChanged\":false");
        assertThat(force("AUTO")).contains("\"state\":\"CLOSED\"", "\"changed\":true", "\"fleetChanged\":true");

        // Redis takes the force but answers after the timeout: whether the fleet changed is unknown.
        redis.pause();
        String late;
        try {
            late = force("OPEN");
        } finally {
            redis.resume();
        }
        assertThat(late).contains("\"state\":\"FORCED_OPEN\"", "\"changed\":true", "\"fleetChanged\":\"unknown\"");
        assertThat(force("AUTO")).contains("\"state\":\"CLOSED\"", "\"changed\":true", "\"fleetChanged\":true");

        redis.kill();
        try {
            await(
                    Duration.ofSeconds(20),
                    () -> get("/days").statusCode() == 503 && breaker().contains("\"reachable\":false"));
            String down = breaker();
            assertThat(down)
                    .contains(
                            "\"state\":\"OPEN\"",
                            "\"actingAlone\":false",
                            "\"to\":\"OPEN\",\"cause\":\"STORE_UNAVAILABLE\"");
            assertThat(down).doesNotContain("FAILURE_RATE");
            // Forced while Redis is down: this instance changed, the fleet could not be asked.
            assertThat(force("CLOSED"))
                    .contains("\"state\":\"FORCED_CLOSED\"", "\"changed\":true")
                    .doesNotContain("fleetChanged");
        } finally {
            redis.start();
        }
        assertThat(force("AUTO")).contains("\"changed\":true");
        await(
                Duration.ofSeconds(20),
                () -> get("/days").statusCode() == 200
                        && breaker().contains("\"reachable\":true")
                        && breaker().contains("\"state\":\"CLOSED\""));
        assertThat(breaker()).doesNotContain("FAILURE_RATE");
    }

    @Test
    void aSettingsWriteThatChangesNothingChangesNothingInTheFleetEither() {
        Dependency.FAILING.set(false);
        await(
                Duration.ofSeconds(20),
                () -> get("/days").statusCode() == 200 && breaker().contains("\"reachable\":true"));
        assertThat(config("POST", "{\"failure-rate-threshold\": 40}"))
                .contains("\"changed\":true", "\"fleetChanged\":true");
        String reset = config("DELETE", null);
        assertThat(reset).contains("\"changed\":true", "\"fleetChanged\":true");
        String version = reset.replaceAll("(?s).*?(\"version\":\\d+).*", "$1");
        String changes = settingsChanges();

        String resetAgain = config("DELETE", null);
        String backToConfigured = config("POST", "{\"slow-call-rate-threshold\": null}");

        for (String answer : List.of(resetAgain, backToConfigured)) {
            assertThat(answer).contains("\"changed\":false", "\"fleetChanged\":false", version);
        }
        assertThat(settingsChanges()).isEqualTo(changes);
    }

    /** The breaker's settings changes as the endpoint writes them (the history after them changes at every read). */
    private static String settingsChanges() {
        return breaker().replaceAll("(?s).*\"settingsChanges\":", "").replaceAll("(?s),\"activity\":.*", "");
    }

    private static String config(String method, String body) {
        HttpRequest.Builder request = request("/actuator/breakers/wholesaler/config")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request.build()).body();
    }

    private static String breaker() {
        return get("/actuator/breakers/wholesaler").body();
    }

    private static String force(String state) {
        return send(request("/actuator/breakers/wholesaler")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"" + state + "\"}"))
                        .build())
                .body();
    }

    private static HttpResponse<String> get(String path) {
        return send(request(path).build());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static HttpRequest.Builder request(String path) {
        int port = FleetApplication.port(application);
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5));
    }
}
