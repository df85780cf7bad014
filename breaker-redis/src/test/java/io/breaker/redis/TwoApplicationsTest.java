package io.breaker.redis;

import io.breaker.redis.app.FleetApplication;
import io.breaker.redis.app.FleetApplication.Dependency;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
import java.util.ArrayList;
import java.util.List;

import static io.breaker.redis.Fleet.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real instances of an application (two HTTP ports, one Redis), driven only over HTTP: the fleet
 * trips together and an operator's force through one instance's actuator endpoint reaches the other.
 */
@Tag(BootLine.TAG)
class TwoApplicationsTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final int MINIMUM_CALLS = 5;
    private static final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static String breaker;

    @BeforeAll
    static void startTwoInstances() {
        breaker = "wholesaler";
        String prefix = "breakers.instances." + breaker + ".";
        for (int i = 0; i < 2; i++) {
            instances.add(new SpringApplicationBuilder(FleetApplication.class)
                    .properties(
                            "server.port=0",
                            "spring.data.redis.host=127.0.0.1",
                            "spring.data.redis.port=" + redis.port(),
                            "management.endpoints.web.exposure.include=breakers",
                            "breakers.store.type=redis",
                            "breakers.store.state-cache-ttl=300ms",
                            "breakers.store.timeout=250ms",
                            prefix + "sliding-window-size=10",
                            prefix + "minimum-number-of-calls=" + MINIMUM_CALLS,
                            prefix + "failure-rate-threshold=50",
                            prefix + "wait-duration-in-open-state=1m")
                    .run());
        }
    }

    @AfterAll
    static void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @BeforeEach
    void freshSharedState() throws Exception {
        Dependency.FAILING.set(false);
        // Through FORCED_OPEN, so that instance 1's successes of an earlier test are dropped, not sent
        // into the next test's window; each instance refreshes its cache at its first call after a TTL.
        assertThat(post(0, "OPEN")).isEqualTo(200);
        await(Duration.ofSeconds(2), () -> get(1, "/days") == 503);
        assertThat(post(0, "AUTO")).isEqualTo(200);
        await(Duration.ofSeconds(2), () -> get(1, "/days") == 200); // at most one success left to send
        assertThat(state(1)).contains("\"state\":\"CLOSED\"");
        Dependency.CALLS.set(0);
    }

    @Test
    void theTwoInstancesStopCallingAFailingDependencyTogether() throws Exception {
        Dependency.FAILING.set(true);
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int instance = i;
            clients.add(Fleet.thread(() -> {
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (System.nanoTime() < deadline && get(instance, "/days") != 503) {
                    // one client per instance, until its instance rejects
                }
            }));
        }
        for (Thread client : clients) {
            client.join();
        }

        assertThat(Dependency.CALLS.get()).isBetween(MINIMUM_CALLS, MINIMUM_CALLS + 1);
        assertThat(state(0)).contains("\"state\":\"OPEN\"");
        assertThat(state(1)).contains("\"state\":\"OPEN\"");
    }

    @Test
    void aForceThroughOneInstancesEndpointReachesTheOther() throws Exception {
        assertThat(post(0, "OPEN")).isEqualTo(200);
        // Instance 1 serves from its cache until its first call after one TTL (300ms) refreshes it.
        await(Duration.ofMillis(300 + 700), () -> get(1, "/days") == 503);
        assertThat(state(1)).contains("\"state\":\"FORCED_OPEN\"");
        int reachedBeforeRefresh = Dependency.CALLS.get();
        assertThat(get(1, "/days")).isEqualTo(503);
        assertThat(Dependency.CALLS.get()).isEqualTo(reachedBeforeRefresh);

        assertThat(post(1, "AUTO")).isEqualTo(200);
        await(Duration.ofMillis(300 + 700), () -> get(0, "/days") == 200);
        assertThat(state(0)).contains("\"state\":\"CLOSED\"");
    }

    private static int port(int instance) {
        return FleetApplication.port(instances.get(instance));
    }

    private static int get(int instance, String path) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(instance) + path))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String state(int instance) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create(
                                            "http://127.0.0.1:" + port(instance) + "/actuator/breakers/" + breaker))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int post(int instance, String state) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port(instance) + "/actuator/breakers/" + breaker))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"" + state + "\"}"))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
