package io.breaker.sample;

import io.breaker.spi.StateStore;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.util.TestSocketUtils;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * breaker-redis is on the sample app's classpath for the {@code redis} profile; without that profile
 * the app must behave as before: breakers in memory, health UP, and not one connection to Redis,
 * neither at start-up nor when serving, nor from the health endpoint.
 */
class DefaultProfileNeedsNoRedisTest {

    @Test
    void withoutTheRedisProfileTheAppNeverConnectsToRedisAndKeepsItsBreakersInMemory() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket fakeRedis = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(
                    () -> {
                        while (!fakeRedis.isClosed()) {
                            try (Socket accepted = fakeRedis.accept()) {
                                connections.incrementAndGet();
                            } catch (IOException closed) {
                                return;
                            }
                        }
                    },
                    "fake-redis");
            acceptor.setDaemon(true);
            acceptor.start();

            try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
                    .profiles("test")
                    .run(
                            "--server.port=0",
                            "--bookshop.simulator.port=" + TestSocketUtils.findAvailableTcpPort(),
                            // Where Redis would be, if anything looked for it.
                            "--spring.data.redis.host=127.0.0.1",
                            "--spring.data.redis.port=" + fakeRedis.getLocalPort())) {
                int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
                HttpClient http = HttpClient.newHttpClient();

                HttpResponse<String> health = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                HttpResponse<String> answer = http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + port + "/books/9780134685991/delivery-time"))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

                assertThat(health.statusCode()).isEqualTo(200);
                assertThat(health.body()).contains("\"status\":\"UP\"").doesNotContain("\"redis\"");
                assertThat(answer.statusCode()).isEqualTo(200);
                assertThat(answer.headers().firstValue("X-Served-By")).contains("live");
                assertThat(context.getBeansOfType(StateStore.class)).isEmpty();
                assertThat(connections.get()).isZero();
            }
        }
    }
}
