package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.test.AutoConfigureBreakers;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.util.TestSocketUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts the whole bookshop on a random port, its simulated wholesaler on a free port, and talks to
 * both over real HTTP, as a user with curl would. Every subclass shares one application context, whose
 * breakers run on the test kit's virtual clock and start each test CLOSED and fresh.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureBreakers
// Spring Boot's tests switch metrics export off unless asked, and /actuator/prometheus with it; each
// line asks with a property of its own (Boot 3, Boot 4), and ignores the other's.
@TestPropertySource(properties = {"spring.test.observability.auto-configure=true", "spring.test.metrics.export=true"})
@ActiveProfiles("test")
abstract class BookshopHttpTest {

    static final String OPERATOR = "operator";
    static final String OPERATOR_PASSWORD = "test-operator-secret";

    private static final int WHOLESALER_PORT = TestSocketUtils.findAvailableTcpPort();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void wholesalerPort(DynamicPropertyRegistry registry) {
        registry.add("bookshop.simulator.port", () -> WHOLESALER_PORT);
    }

    /** Starts each test from a fresh, automatic, CLOSED breaker and a healthy wholesaler. */
    void resetBreakerAndWholesaler() {
        switchWholesaler("healthy");
        assertThat(postState("wholesaler", "{\"state\":\"CLOSED\"}", OPERATOR, OPERATOR_PASSWORD)
                        .statusCode())
                .isEqualTo(200);
        assertThat(postState("wholesaler", "{\"state\":\"AUTO\"}", OPERATOR, OPERATOR_PASSWORD)
                        .statusCode())
                .isEqualTo(200);
        assertThat(breakerState()).isEqualTo("CLOSED");
    }

    HttpResponse<String> deliveryTime(String isbn) {
        return send(request("/books/" + isbn + "/delivery-time").GET().build());
    }

    /** Sends the same request {@code count} times at once; answers in the order sent. */
    List<HttpResponse<String>> deliveryTimeBurst(String isbn, int count) {
        List<CompletableFuture<HttpResponse<String>>> inFlight = IntStream.range(0, count)
                .mapToObj(i -> HTTP.sendAsync(
                        request("/books/" + isbn + "/delivery-time").GET().build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)))
                .toList();
        return inFlight.stream().map(CompletableFuture::join).toList();
    }

    JsonNode switchWholesaler(String mode) {
        HttpResponse<String> response = put("/wholesaler/mode/" + mode);
        assertThat(response.statusCode())
                .as("switching the wholesaler to %s", mode)
                .isEqualTo(200);
        return json(response);
    }

    long wholesalerRequests() {
        return json(send(request("/wholesaler").GET().build()))
                .get("requestsReceived")
                .asLong();
    }

    JsonNode breaker(String name) {
        HttpResponse<String> response =
                send(request("/actuator/breakers/" + name).GET().build());
        assertThat(response.statusCode()).isEqualTo(200);
        return json(response);
    }

    String breakerState() {
        return breaker("wholesaler").get("state").asText();
    }

    HttpResponse<String> get(String path) {
        return send(request(path).GET().build());
    }

    /** A GET with the operator's HTTP basic credentials. */
    HttpResponse<String> getAsOperator(String path) {
        String credentials = Base64.getEncoder()
                .encodeToString((OPERATOR + ":" + OPERATOR_PASSWORD).getBytes(StandardCharsets.UTF_8));
        return send(request(path)
                .header("Authorization", "Basic " + credentials)
                .GET()
                .build());
    }

    /** A DELETE with the operator's HTTP basic credentials. */
    HttpResponse<String> deleteAsOperator(String path) {
        String credentials = Base64.getEncoder()
                .encodeToString((OPERATOR + ":" + OPERATOR_PASSWORD).getBytes(StandardCharsets.UTF_8));
        return send(request(path)
                .header("Authorization", "Basic " + credentials)
                .DELETE()
                .build());
    }

    HttpResponse<String> put(String path) {
        return send(request(path).PUT(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** {@code POST /actuator/breakers/{name}}, with HTTP basic credentials unless {@code user} is null. */
    HttpResponse<String> postState(String name, String body, String user, String password, String... headers) {
        return post("/actuator/breakers/" + name, body, user, password, headers);
    }

    /**
     * A JSON POST to {@code path}, with HTTP basic credentials unless {@code user} is null, and the given
     * headers (name, value, name, value, ...), as a browser adds {@code Origin} and {@code Sec-Fetch-Site}.
     */
    HttpResponse<String> post(String path, String body, String user, String password, String... headers) {
        HttpRequest.Builder builder = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        if (user != null) {
            String credentials =
                    Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            builder.header("Authorization", "Basic " + credentials);
        }
        return send(builder.build());
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("Not JSON: " + response.body(), e);
        }
    }

    static String servedBy(HttpResponse<String> response) {
        return response.headers().firstValue("X-Served-By").orElse("<none>");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30));
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
