package io.breaker.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.redis.app.FleetApplication;
import io.breaker.redis.app.FleetApplication.Dependency;
import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.DocExamples;
import io.breaker.spring.test.TestUsers;
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
import java.util.Set;

import static io.breaker.redis.Fleet.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/operations.md's examples of a breaker shared through Redis are what two instances on a real
 * {@code redis-server} answer: a force made by {@code alice} through one instance, and the 409 of an
 * instance whose view of the fleet's settings is stale (it read them before the other instance changed
 * them). Every field as shown, in the order shown; the version only a number, and the message as far as
 * the example shows it.
 */
@Tag(BootLine.TAG)
class OperationsDocSharedExamplesTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void start() {
        first = instance();
        second = instance();
    }

    /**
     * An instance that reads the fleet's settings again only a minute after it last did, so that the
     * other instance's change stays unseen for the test's length.
     */
    private static ConfigurableApplicationContext instance() {
        return new SpringApplicationBuilder(FleetApplication.class, TestUsers.class)
                .properties(
                        "server.port=0",
                        "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + redis.port(),
                        "management.endpoints.web.exposure.include=breakers",
                        "breakers.store.type=redis",
                        "breakers.store.state-cache-ttl=60s",
                        "breakers.store.timeout=1s")
                .run();
    }

    @AfterAll
    static void stop() {
        for (ConfigurableApplicationContext instance : new ConfigurableApplicationContext[] {first, second}) {
            if (instance != null) {
                instance.close();
            }
        }
    }

    @Test
    void theSharedForceAndTheStaleSettingsAnswersAreTheExamples() throws Exception {
        DocExamples docs = DocExamples.of("docs/operations.md");
        JsonNode shownForce = JSON.readTree(docs.block("For a breaker shared through Redis:", "json"));
        JsonNode shownStale = JSON.readTree(docs.block("**A stale view is a 409.**", "json"));
        Dependency.FAILING.set(false);
        for (ConfigurableApplicationContext instance : new ConfigurableApplicationContext[] {first, second}) {
            await(
                    Duration.ofSeconds(20),
                    () -> send(instance, "GET", "/days", null).statusCode() == 200
                            && send(instance, "GET", "/actuator/breakers/wholesaler", null)
                                    .body()
                                    .contains("\"reachable\":true"));
        }

        HttpResponse<String> force = send(first, "POST", "/actuator/breakers/wholesaler", "{\"state\":\"OPEN\"}");
        try {
            assertThat(force.statusCode()).as(force.body()).isEqualTo(200);
            DocExamples.assertLike(shownForce, JSON.readTree(force.body()), Set.of());
        } finally {
            send(first, "POST", "/actuator/breakers/wholesaler", "{\"state\":\"AUTO\"}");
        }

        HttpResponse<String> changed =
                send(first, "POST", "/actuator/breakers/wholesaler/config", "{\"failure-rate-threshold\": 40}");
        assertThat(changed.body()).contains("\"fleetChanged\":true");
        HttpResponse<String> stale =
                send(second, "POST", "/actuator/breakers/wholesaler/config", "{\"failure-rate-threshold\": 30}");
        try {
            assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
            DocExamples.assertLike(shownStale, JSON.readTree(stale.body()), Set.of("version"));
        } finally {
            send(first, "DELETE", "/actuator/breakers/wholesaler/config", null);
        }
    }

    /** A request to {@code instance}, made by {@code alice}. */
    private static HttpResponse<String> send(
            ConfigurableApplicationContext instance, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + FleetApplication.port(instance) + path))
                .timeout(Duration.ofSeconds(5))
                .header(TestUsers.HEADER, "alice")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
