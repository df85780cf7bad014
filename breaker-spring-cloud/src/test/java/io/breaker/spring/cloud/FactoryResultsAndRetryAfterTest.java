package io.breaker.spring.cloud;

import com.sun.net.httpserver.HttpServer;
import io.breaker.CircuitOpenException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code record-result} and {@code Retry-After} through Spring Cloud's factories, as users call them,
 * against a real HTTP backend that answers 503 with {@code Retry-After: 120}: a {@code ResponseEntity}
 * the rule counts trips the breaker and still reaches the caller; the header of the counted answer, or
 * of the client's exception, keeps the breaker open for 120 s instead of the configured 30 s, and
 * {@code /actuator/breakers} says so with {@code waitReason} {@code RETRY_AFTER}.
 */
@Tag("boot-line")
@SpringBootTest(
        classes = FactoryResultsAndRetryAfterTest.Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.main.web-application-type=servlet",
            "management.endpoints.web.exposure.include=breakers",
            "breakers.defaults.sliding-window-size=2",
            "breakers.defaults.minimum-number-of-calls=2",
            "breakers.defaults.wait-duration-in-open-state=30s",
            "breakers.instances.stock.record-result.http-status=500-599",
            "breakers.instances.stock-reactive.record-result.http-status=500-599",
            "breakers.instances.pricing.failure-rate-threshold=50",
            "breakers.instances.pricing-reactive.failure-rate-threshold=50"
        })
class FactoryResultsAndRetryAfterTest {

    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final HttpServer BACKEND = backend();
    private static final String BACKEND_URL =
            "http://127.0.0.1:" + BACKEND.getAddress().getPort() + "/unavailable";

    private final RestClient restClient = RestClient.create();
    private final WebClient webClient =
            WebClient.builder().clientConnector(new JdkClientHttpConnector()).build();

    @Autowired
    CircuitBreakerFactory<?, ?> factory;

    @Autowired
    ReactiveCircuitBreakerFactory<?, ?> reactiveFactory;

    @Autowired
    TestClock clock;

    /** The server's port (LocalServerPort moved package in Boot 4; the property did not). */
    @Value("${local.server.port}")
    int port;

    @AfterAll
    static void stopBackend() {
        BACKEND.stop(0);
    }

    @Test
    void aResponseEntityTheRuleCountsTripsTheBreakerAndItsRetryAfterLengthensTheWait() throws Exception {
        for (int i = 0; i < 2; i++) {
            ResponseEntity<String> answer = factory.create("stock")
                    .run(
                            () -> restClient
                                    .get()
                                    .uri(BACKEND_URL)
                                    .retrieve()
                                    .onStatus(status -> true, (request, response) -> {})
                                    .toEntity(String.class),
                            error -> ResponseEntity.ok("fallback"));
            assertThat(answer.getStatusCode().value())
                    .as("a counted result is still the caller's answer, not the fallback's")
                    .isEqualTo(503);
        }
        assertThat(breaker("stock"))
                .contains("\"state\":\"OPEN\"")
                .contains("\"failedCalls\":2")
                .contains("\"waitReason\":\"RETRY_AFTER\"");
        assertOpenPastTheConfiguredWait("stock");
    }

    @Test
    void aRestClientResponseExceptionWithRetryAfterKeepsTheBreakerOpenForIt() throws Exception {
        for (int i = 0; i < 2; i++) {
            Throwable[] seen = new Throwable[1];
            assertThat(factory.create("pricing")
                            .run(
                                    () -> restClient
                                            .get()
                                            .uri(BACKEND_URL)
                                            .retrieve()
                                            .body(String.class),
                                    error -> {
                                        seen[0] = error;
                                        return "fallback";
                                    }))
                    .isEqualTo("fallback");
            assertThat(seen[0]).isInstanceOf(RestClientResponseException.class);
        }
        assertThat(breaker("pricing")).contains("\"state\":\"OPEN\"").contains("\"waitReason\":\"RETRY_AFTER\"");
        assertOpenPastTheConfiguredWait("pricing");
    }

    @Test
    void aReactiveRunCountsAResponseEntityAndReadsRetryAfterFromWebClientResponseException() throws Exception {
        for (int i = 0; i < 2; i++) {
            ResponseEntity<String> answer = reactiveFactory
                    .create("stock-reactive")
                    .run(
                            webClient
                                    .get()
                                    .uri(BACKEND_URL)
                                    .retrieve()
                                    .onStatus(status -> true, response -> Mono.empty())
                                    .toEntity(String.class),
                            error -> Mono.just(ResponseEntity.ok("fallback")))
                    .block(Duration.ofSeconds(10));
            assertThat(answer.getStatusCode().value()).isEqualTo(503);
        }
        assertThat(breaker("stock-reactive")).contains("\"state\":\"OPEN\"").contains("\"waitReason\":\"RETRY_AFTER\"");

        for (int i = 0; i < 2; i++) {
            Throwable[] seen = new Throwable[1];
            assertThat(reactiveFactory
                            .create("pricing-reactive")
                            .run(webClient.get().uri(BACKEND_URL).retrieve().bodyToMono(String.class), error -> {
                                seen[0] = error;
                                return Mono.just("fallback");
                            })
                            .block(Duration.ofSeconds(10)))
                    .isEqualTo("fallback");
            assertThat(seen[0]).isInstanceOf(WebClientResponseException.class);
        }
        assertThat(breaker("pricing-reactive"))
                .contains("\"state\":\"OPEN\"")
                .contains("\"waitReason\":\"RETRY_AFTER\"");
    }

    /** After the configured 30 s the breaker still rejects; only the 120 s asked for let a probe through. */
    private void assertOpenPastTheConfiguredWait(String name) {
        int before = REQUESTS.get();
        clock.advance(Duration.ofSeconds(31));
        Throwable[] seen = new Throwable[1];
        factory.create(name)
                .run(() -> restClient.get().uri(BACKEND_URL).retrieve().body(String.class), error -> {
                    seen[0] = error;
                    return "fallback";
                });
        assertThat(seen[0]).isInstanceOf(CircuitOpenException.class);
        assertThat(REQUESTS.get()).as("no probe before the Retry-After").isEqualTo(before);
        clock.advance(Duration.ofSeconds(90));
        factory.create(name)
                .run(() -> restClient.get().uri(BACKEND_URL).retrieve().body(String.class), error -> "x");
        assertThat(REQUESTS.get()).as("the probe, after 121 s").isEqualTo(before + 1);
    }

    private String breaker(String name) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers/" + name))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static HttpServer backend() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/unavailable", exchange -> {
                REQUESTS.incrementAndGet();
                byte[] body = "unavailable".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Retry-After", "120");
                exchange.sendResponseHeaders(503, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Application {

        /** The breakers' clock (a {@code NanoClock} bean replaces the system's): the test moves it. */
        @Bean
        TestClock testClock() {
            return new TestClock();
        }
    }
}
