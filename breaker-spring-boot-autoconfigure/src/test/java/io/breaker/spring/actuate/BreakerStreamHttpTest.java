package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /actuator/breakers/stream} over real HTTP: a snapshot, then transitions; a slow client is dropped. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakerStreamHttpTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.failure-rate-threshold=50",
            "logging.level.io.breaker.transitions=off"
        })
@Tag(BootLine.TAG)
class BreakerStreamHttpTest {

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @Autowired
    private BreakerEventStream stream;

    @Test
    void sendsASnapshotThenEachTransitionAsItHappens() throws Exception {
        CircuitBreaker wholesaler = registry.breaker("wholesaler");
        HttpResponse<Stream<String>> response = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers/stream"))
                                .build(),
                        HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        Iterator<String> lines = response.body().iterator();
        try {
            assertThat(next(lines)).isEqualTo("retry: " + BreakerEventStream.RECONNECT.toMillis());
            assertThat(next(lines)).isEmpty();
            assertThat(next(lines)).isEqualTo("event: snapshot");
            assertThat(next(lines))
                    .startsWith("data: {\"breakers\":[")
                    .contains("\"name\":\"wholesaler\"", "\"state\":\"CLOSED\"");
            assertThat(next(lines)).isEmpty();

            wholesaler.forceOpen();

            assertThat(next(lines)).isEqualTo("event: transition");
            assertThat(next(lines))
                    .startsWith("data: {\"name\":\"wholesaler\",\"transition\":{\"from\":\"CLOSED\","
                            + "\"to\":\"FORCED_OPEN\",\"cause\":\"OPERATOR\",\"at\":\"20")
                    .contains("\"breaker\":{\"name\":" + "\"wholesaler\",\"state\":\"FORCED_OPEN\"");
        } finally {
            wholesaler.release();
            response.body().close();
        }
        // The server learns that a client left when it next writes to it, which a keep-alive alone
        // does up to twice 15 s later: transitions make it write now, so no subscriber outlives the test.
        await(() -> {
            wholesaler.forceOpen();
            wholesaler.release();
            return stream.subscribers() == 0;
        });
    }

    @Test
    void aClientThatDoesNotReadIsDroppedAndNeverSlowsTheBreaker() throws Exception {
        CircuitBreaker wholesaler = registry.breaker("wholesaler");
        long droppedBefore = stream.droppedSubscribers();
        try (Socket silent = new Socket()) {
            silent.setReceiveBufferSize(4096);
            silent.connect(new InetSocketAddress("localhost", port));
            OutputStream request = silent.getOutputStream();
            request.write(("GET /actuator/breakers/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            request.flush();
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(silent.getInputStream(), StandardCharsets.UTF_8));
            assertThat(reader.readLine()).startsWith("HTTP/1.1 200"); // subscribed; from here on it reads nothing
            await(() -> stream.subscribers() == 1);

            // Far more transitions than the socket buffers and the subscriber's queue hold. Each
            // transition only offers to the queue: this loop ends whatever the client does.
            for (int i = 0; i < 20_000 && stream.droppedSubscribers() == droppedBefore; i++) {
                wholesaler.forceOpen();
                wholesaler.release();
            }

            assertThat(stream.droppedSubscribers()).isEqualTo(droppedBefore + 1);
            assertThat(stream.subscribers()).isZero();
        }
        wholesaler.release();
    }

    @Test
    void theConsoleIsOffUnlessAskedFor() throws Exception {
        HttpResponse<String> console = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers/console"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(console.statusCode()).isEqualTo(404);
        assertThat(console.body()).doesNotContain("<html");
    }

    private static String next(Iterator<String> lines) throws Exception {
        return CompletableFuture.supplyAsync(lines::next).get(30, TimeUnit.SECONDS);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 30 s").isLessThan(end);
            Thread.sleep(10);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}
}
