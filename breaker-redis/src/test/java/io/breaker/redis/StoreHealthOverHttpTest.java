package io.breaker.redis;

import io.breaker.redis.app.FleetApplication;
import io.breaker.redis.app.FleetApplication.Dependency;
import io.breaker.spring.test.BootLine;
import io.micrometer.core.instrument.MeterRegistry;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.breaker.redis.Fleet.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application's {@code breakerStore} health and {@code breaker.store.acting.alone} gauge through a
 * Redis outage, read as an operator reads them (the health over HTTP): available, then acting alone
 * while Redis is down, then available again, UP throughout.
 */
@Tag(BootLine.TAG)
class StoreHealthOverHttpTest {

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
                        "management.endpoint.health.show-details=always",
                        "breakers.store.type=redis",
                        "breakers.store.state-cache-ttl=200ms",
                        "breakers.store.timeout=100ms",
                        "breakers.store.failure-mode=protect-locally")
                .run();
    }

    @AfterAll
    static void stop() {
        if (application != null) {
            application.close();
        }
    }

    @Test
    void theInstanceSaysWhenItActsAloneAndStaysUp() throws Exception {
        Dependency.FAILING.set(false);
        // Redis is up; one slow answer on a busy machine may still flip "available" for a moment.
        await(Duration.ofSeconds(20), () -> get("/days") == 200 && health().contains("\"available\":true"));
        assertThat(health())
                .contains(
                        "200 ",
                        "\"status\":\"UP\"",
                        "\"actingAlone\":false",
                        "\"failureMode\":\"protect-locally\"",
                        "\"failedOperations\":");
        assertThat(actingAloneGauge()).isZero();
        long failedBefore = failedOperations();

        redis.kill();
        try {
            // Calls go on (served locally); their refreshes find Redis gone.
            await(Duration.ofSeconds(20), () -> get("/days") == 200 && health().contains("\"actingAlone\":true"));
            assertThat(health())
                    .contains(
                            "200 ",
                            "\"status\":\"UP\"",
                            "\"available\":false",
                            "\"actingAlone\":true",
                            "\"failureMode\":\"protect-locally\"");
            assertThat(failedOperations()).isGreaterThan(failedBefore);
            assertThat(actingAloneGauge()).isEqualTo(1.0);
        } finally {
            redis.start();
        }

        await(Duration.ofSeconds(20), () -> get("/days") == 200 && health().contains("\"available\":true"));
        assertThat(health()).contains("200 ", "\"status\":\"UP\"", "\"actingAlone\":false");
        assertThat(actingAloneGauge()).isZero();
    }

    private static long failedOperations() {
        Matcher count = Pattern.compile("\"failedOperations\":(\\d+)").matcher(health());
        assertThat(count.find()).isTrue();
        return Long.parseLong(count.group(1));
    }

    private static double actingAloneGauge() {
        return application
                .getBean(MeterRegistry.class)
                .get("breaker.store.acting.alone")
                .tag("store", "redis")
                .gauge()
                .value();
    }

    private static String health() {
        try {
            HttpResponse<String> response =
                    http.send(request("/actuator/health/breakerStore"), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.body();
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static int get(String path) {
        try {
            return http.send(request(path), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static HttpRequest request(String path) {
        int port = FleetApplication.port(application);
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .build();
    }
}
