package io.breaker.redis;

import io.breaker.BreakerRegistry;
import io.breaker.redis.app.FleetApplication;
import io.breaker.redis.app.FleetApplication.Dependency;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
import java.util.ArrayList;
import java.util.List;

import static io.breaker.redis.Fleet.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Settings changed at runtime through one instance's endpoint reach the other instances of the fleet
 * (two applications on one real redis-server, driven over HTTP), and so does the return to the
 * configured values; an instance started later picks them up too.
 */
class RuntimeSettingsFleetTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final String CONFIG = "/actuator/breakers/wholesaler/config";
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @BeforeAll
    static void startTwoInstances() {
        start();
        start();
    }

    private static void start() {
        instances.add(new SpringApplicationBuilder(FleetApplication.class).properties(
                "server.port=0",
                "spring.data.redis.host=127.0.0.1",
                "spring.data.redis.port=" + redis.port(),
                "management.endpoints.web.exposure.include=breakers",
                "breakers.store.type=redis",
                "breakers.store.state-cache-ttl=300ms",
                "breakers.store.timeout=250ms",
                "breakers.instances.wholesaler.failure-rate-threshold=50").run());
    }

    @AfterAll
    static void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void aChangeThroughOneInstanceReachesTheFleetAndSoDoesItsReturn() {
        Dependency.FAILING.set(false);
        await(Duration.ofSeconds(20), () -> get(1, "/days").statusCode() == 200);

        HttpResponse<String> changed = send(0, "POST", CONFIG,
                "{\"failure-rate-threshold\": 30, \"wait-duration-in-open-state\": \"10s\"}");

        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.body()).contains("\"shared\":true", "\"fleetChanged\":true", "\"version\":1");
        // Instance 1 learns it at its first call after one cache TTL (300 ms).
        await(Duration.ofMillis(300 + 1_700), () -> get(1, "/days").statusCode() == 200
                && threshold(1) == 30f);
        assertThat(get(1, CONFIG).body()).contains("\"version\":1",
                "\"failure-rate-threshold\":{\"value\":30.0,\"source\":\"RUNTIME\",\"configured\":50.0}",
                "\"wait-duration-in-open-state\":{\"value\":\"PT10S\",\"source\":\"RUNTIME\"");
        assertThat(get(1, "/actuator/breakers/wholesaler").body()).contains("\"cause\":\"OPERATOR\"",
                "\"settings\":{\"failure-rate-threshold\":\"30\",\"wait-duration-in-open-state\":\"10s\"}");

        start(); // a third instance, started after the change
        await(Duration.ofSeconds(5), () -> get(2, "/days").statusCode() == 200 && threshold(2) == 30f);

        HttpResponse<String> tooLong = send(0, "POST", CONFIG, "{\"wait-duration-in-open-state\": \"8d\"}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("breakers.store.key-expiry must be longer than");
        assertThat(threshold(0)).isEqualTo(30f);

        HttpResponse<String> reset = send(1, "DELETE", CONFIG, null);

        assertThat(reset.statusCode()).isEqualTo(200);
        assertThat(reset.body()).contains("\"fleetChanged\":true", "\"version\":2");
        await(Duration.ofMillis(300 + 1_700), () -> get(0, "/days").statusCode() == 200 && threshold(0) == 50f);
        await(Duration.ofMillis(300 + 1_700), () -> get(2, "/days").statusCode() == 200 && threshold(2) == 50f);
        assertThat(get(0, CONFIG).body()).contains("\"version\":2",
                "\"failure-rate-threshold\":{\"value\":50.0,\"source\":\"YAML\"");
    }

    private static float threshold(int instance) {
        return instances.get(instance).getBean(BreakerRegistry.class).breaker("wholesaler").getConfig()
                .getFailureRateThreshold();
    }

    private static HttpResponse<String> get(int instance, String path) {
        return send(instance, "GET", path, null);
    }

    private static HttpResponse<String> send(int instance, String method, String path, String body) {
        int port = FleetApplication.port(instances.get(instance));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
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
