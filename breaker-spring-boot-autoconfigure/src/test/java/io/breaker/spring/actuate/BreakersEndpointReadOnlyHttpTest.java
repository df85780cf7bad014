package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.State;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code management.endpoint.breakers.access=read-only}, as the operations guide recommends for a public port. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakersEndpointHttpTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "management.endpoint.breakers.access=read-only"
        })
@Tag(BootLine.TAG)
class BreakersEndpointReadOnlyHttpTest {

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @Test
    void readsWorkAndWritesAreRefused() throws Exception {
        registry.breaker("wholesaler");
        URI uri = URI.create("http://localhost:" + port + "/actuator/breakers/wholesaler");

        HttpResponse<String> read =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> write = http.send(
                HttpRequest.newBuilder(uri)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"OPEN\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(write.statusCode()).isEqualTo(405);
        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void settingsCanBeReadButNotChanged() throws Exception {
        registry.breaker("wholesaler");
        URI uri = URI.create("http://localhost:" + port + "/actuator/breakers/wholesaler/config");

        HttpResponse<String> read =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> write = http.send(
                HttpRequest.newBuilder(uri)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"failure-rate-threshold\": 10}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> reset =
                http.send(HttpRequest.newBuilder(uri).DELETE().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(write.statusCode()).isEqualTo(405);
        assertThat(reset.statusCode()).isEqualTo(405);
        assertThat(registry.breaker("wholesaler").getConfig().getFailureRateThreshold())
                .isEqualTo(50f);
    }
}
