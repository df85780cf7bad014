package io.breaker.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.BreakerRegistry;
import io.breaker.State;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/operations.md's examples of refused requests are the endpoint's answers: each request below
 * gets the status and the body the docs show after the sentence named (where the docs cut a long value
 * with {@code ...}, the answer starts with what they show), and changes nothing.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = OperationsDocErrorExamplesTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.failure-rate-threshold=50",
            "breakers.instances.payments.failure-rate-threshold=50"
        })
@Tag(BootLine.TAG)
class OperationsDocErrorExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "An unknown name is a 404, and no breaker is created | /actuator/breakers/nobody | {\"state\":\"OPEN\"}",
                "A missing or unknown `state` is a 400 | /actuator/breakers/payments | {\"state\":\"HALF\"}",
                "The body takes the keys | /actuator/breakers/payments | {\"state\":\"OPEN\",\"force\":true}",
                "A bad value is a 400 whose | /actuator/breakers/wholesaler/config | {\"failure-rate-threshold\":150}",
                "An unknown name is a 400 that shows what was sent | /actuator/breakers/wholesaler/config"
                        + " | {\"failure-rate-treshold\":30}"
            })
    void theAnswerIsTheDocsExample(String sentence, String path, String body) throws Exception {
        JsonNode shown = JSON.readTree(exampleAfter(sentence));
        long versionBefore = settingsVersion();

        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode answer = JSON.readTree(response.body());

        assertThat(response.statusCode()).isEqualTo(shown.get("status").asInt());
        assertThat(fields(answer)).containsExactlyElementsOf(fields(shown));
        shown.fieldNames().forEachRemaining(field -> assertShown(field, shown.get(field), answer.get(field)));
        // Nothing changed: no breaker created, none forced, no settings version taken.
        assertThat(registry.find("nobody")).isEmpty();
        assertThat(registry.breaker("payments").getState()).isEqualTo(State.CLOSED);
        assertThat(settingsVersion()).isEqualTo(versionBefore);
    }

    /** Equal, or, where the docs cut the value with "...", the answer begins with what they show. */
    private static void assertShown(String field, JsonNode shown, JsonNode answer) {
        if (shown.isTextual() && shown.asText().endsWith("...")) {
            String kept = shown.asText().substring(0, shown.asText().length() - 3);
            assertThat(answer.asText()).as(field).startsWith(kept);
        } else if (shown.isArray()
                && shown.size() > 0
                && shown.get(shown.size() - 1).asText().equals("...")) {
            for (int i = 0; i < shown.size() - 1; i++) {
                assertThat(answer.get(i)).as(field + "[" + i + "]").isEqualTo(shown.get(i));
            }
        } else {
            assertThat(answer).as(field).isEqualTo(shown);
        }
    }

    private long settingsVersion() throws Exception {
        String config = http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://localhost:" + port + "/actuator/breakers/wholesaler/config"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return JSON.readTree(config).get("version").asLong();
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The first JSON block after {@code sentence} in docs/operations.md. */
    private static String exampleAfter(String sentence) throws Exception {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve("docs/operations.md")) || !Files.exists(dir.resolve("breaker-core"))) {
            dir = dir.getParent();
            assertThat(dir).as("the repository's root").isNotNull();
        }
        String docs = Files.readString(dir.resolve("docs/operations.md"));
        int at = docs.indexOf(sentence);
        assertThat(at).as("docs/operations.md's sentence '%s'", sentence).isNotNegative();
        Matcher block = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(docs);
        assertThat(block.find(at)).as("a JSON example after '%s'", sentence).isTrue();
        return block.group(1);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}
}
