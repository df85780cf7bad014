package io.breaker.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.DocExamples;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/operations.md's example of the health answer is what {@code /actuator/health} answers with the
 * breakers contributor alone and details shown: {@code payments} forced open, {@code wholesaler}
 * tripped by 3 failures in a window of 4 and still waiting; every field as shown, in the order shown.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = OperationsDocHealthExampleTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=health",
            "management.endpoint.health.show-details=always",
            "management.health.defaults.enabled=false",
            "management.health.breakers.enabled=true",
            // Boot 4 adds the liveness and readiness groups by default; the example shows the breakers alone.
            "management.endpoint.health.probes.enabled=false",
            "management.health.livenessstate.enabled=false",
            "management.health.readinessstate.enabled=false",
            "breakers.instances.wholesaler.sliding-window-size=4",
            "breakers.instances.wholesaler.minimum-number-of-calls=4",
            "breakers.instances.wholesaler.wait-duration-in-open-state=30s",
            "breakers.instances.payments.wait-duration-in-open-state=30s"
        })
@Tag(BootLine.TAG)
class OperationsDocHealthExampleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @Test
    void theHealthAnswerIsTheExample() throws Exception {
        registry.breaker("payments").forceOpen();
        CircuitBreaker wholesaler = registry.breaker("wholesaler");
        wholesaler.execute(() -> "in stock");
        for (int i = 0; i < 3; i++) {
            try {
                wholesaler.execute(() -> {
                    throw new IllegalStateException("down");
                });
            } catch (IllegalStateException expected) {
                // the third failure makes 75% of the window of 4: the breaker opens
            }
        }
        JsonNode shown = JSON.readTree(DocExamples.of("docs/operations.md").block("## Health", "json"));

        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        // Boot writes this answer: the order of its fields is Boot's, and differs between the lines.
        DocExamples.assertLike(shown, JSON.readTree(response.body()), Set.of(), false);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}
}
