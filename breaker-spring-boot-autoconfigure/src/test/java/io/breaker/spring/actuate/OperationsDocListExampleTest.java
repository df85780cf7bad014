package io.breaker.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.DocExamples;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
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
 * docs/operations.md's example of {@code GET /actuator/breakers} is what the endpoint answers for two
 * breakers nothing has called yet: sorted by name, each with the fields shown in the order shown and
 * the values shown ({@code stateSince} any time; the example leaves out the config and the second
 * breaker's fields, which {@code GET /actuator/breakers/{name}} shows).
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = OperationsDocListExampleTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.failure-rate-threshold=50",
            "breakers.instances.payments.failure-rate-threshold=50"
        })
@Tag(BootLine.TAG)
class OperationsDocListExampleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    private int port;

    @Test
    void theListOfBreakersIsTheExample() throws Exception {
        JsonNode shown =
                JSON.readTree(DocExamples.of("docs/operations.md").block("### `GET /actuator/breakers`", "json"));

        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        DocExamples.assertLike(shown, JSON.readTree(response.body()), Set.of());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}
}
