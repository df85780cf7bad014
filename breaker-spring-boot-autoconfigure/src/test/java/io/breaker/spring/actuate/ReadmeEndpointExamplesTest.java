package io.breaker.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's examples of the endpoint's answers are what the endpoint answers: a breaker set up as
 * the example's (a window of 4, 3 of its 4 calls failed with an {@code IllegalStateException}, one
 * call rejected) gives exactly the fields shown, in the order shown, with the values shown; only the
 * times differ (they are checked to be times, and the wait between opening and the next probe to be
 * the same). The force answer and the 404 and 400 answers shown inline are checked the same way.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = ReadmeEndpointExamplesTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.sliding-window-size=4",
            "breakers.instances.wholesaler.minimum-number-of-calls=4",
            "breakers.instances.wholesaler.wait-duration-in-open-state=30s",
            "breakers.instances.payments.wait-duration-in-open-state=30s"
        })
@Tag(BootLine.TAG)
class ReadmeEndpointExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TIMES = Set.of("stateSince", "openedAt", "nextProbeAt", "at");

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @Test
    void theBreakersAnswerIsTheExamplesWithOtherTimes() throws Exception {
        CircuitBreaker wholesaler = registry.breaker("wholesaler");
        wholesaler.release();
        wholesaler.execute(() -> "in stock");
        for (int i = 0; i < 3; i++) {
            try {
                wholesaler.execute(() -> {
                    throw new IllegalStateException("down");
                });
            } catch (IllegalStateException expected) {
                // recorded: the third opens the breaker
            }
        }
        assertThat(wholesaler.tryAcquirePermit()).as("rejected while OPEN").isEqualTo(CircuitBreaker.NO_PERMIT);

        JsonNode shown = JSON.readTree(example("**`GET /actuator/breakers/wholesaler`**"));
        JsonNode answer =
                JSON.readTree(send("GET", "/actuator/breakers/wholesaler", null).body());

        // The whole answer goes with a failure: the example to write, once its times are the example's.
        try {
            assertSameShape("", shown, answer);
        } catch (AssertionError drift) {
            throw new AssertionError("the README's example differs from the answer\n" + answer.toPrettyString(), drift);
        }
        assertThat(Duration.between(
                        Instant.parse(answer.get("openedAt").asText()),
                        Instant.parse(answer.get("nextProbeAt").asText())))
                .isEqualTo(Duration.between(
                        Instant.parse(shown.get("openedAt").asText()),
                        Instant.parse(shown.get("nextProbeAt").asText())));
    }

    @Test
    void theForceAnswerIsTheExamples() throws Exception {
        registry.breaker("payments").release();
        String readme = readme();
        Matcher curl = Pattern.compile("curl -X POST localhost:8080(/actuator/breakers/payments) .*-d '(\\{.*?})'")
                .matcher(readme);
        assertThat(curl.find()).as("the force example's curl line").isTrue();
        JsonNode shown = JSON.readTree(example("curl -X POST localhost:8080/actuator/breakers/payments"));

        JsonNode answer =
                JSON.readTree(send("POST", curl.group(1), curl.group(2)).body());

        // No security here, so no principal: every other field as shown, in the order shown.
        List<String> shownFields = fields(shown);
        shownFields.remove("principal");
        assertThat(fields(answer)).containsExactlyElementsOf(shownFields);
        shownFields.forEach(field -> assertThat(answer.get(field)).as(field).isEqualTo(shown.get(field)));
        registry.breaker("payments").release();
    }

    @Test
    void theInlineErrorAnswersAreTheEndpoints() throws Exception {
        String readme = readme();
        JsonNode notFound = JSON.readTree(inline(readme, "An unknown name is a 404 and creates nothing:"));
        JsonNode badState = JSON.readTree(inline(readme, "A missing or unknown state is a 400:"));

        HttpResponse<String> nobody = send("POST", "/actuator/breakers/nobody", "{\"state\":\"OPEN\"}");
        HttpResponse<String> half = send("POST", "/actuator/breakers/payments", "{\"state\":\"HALF\"}");

        assertThat(nobody.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(nobody.body())).isEqualTo(notFound);
        assertThat(half.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(half.body())).isEqualTo(badState);
        assertThat(registry.find("nobody")).isEmpty();
    }

    /** Same fields in the same order at every level, same values, except times, which are times in both. */
    private static void assertSameShape(String path, JsonNode shown, JsonNode answer) {
        if (shown.isObject()) {
            assertThat(fields(answer))
                    .as("fields of %s", path.isEmpty() ? "the answer" : path)
                    .containsExactlyElementsOf(fields(shown));
            shown.fieldNames().forEachRemaining(field -> {
                String at = path.isEmpty() ? field : path + "." + field;
                if (TIMES.contains(field)) {
                    assertThat(Instant.parse(answer.get(field).asText())).as(at).isNotNull();
                    assertThat(Instant.parse(shown.get(field).asText())).as(at).isNotNull();
                } else {
                    assertSameShape(at, shown.get(field), answer.get(field));
                }
            });
        } else if (shown.isArray()) {
            assertThat(answer.size()).as("elements of %s", path).isEqualTo(shown.size());
            for (int i = 0; i < shown.size(); i++) {
                assertSameShape(path + "[" + i + "]", shown.get(i), answer.get(i));
            }
        } else {
            assertThat(answer).as(path).isEqualTo(shown);
        }
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The first JSON block after {@code marker} in the README. */
    private static String example(String marker) throws IOException {
        String readme = readme();
        int at = readme.indexOf(marker);
        assertThat(at).as("the README's %s", marker).isNotNegative();
        Matcher block = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(block.find(at)).as("a JSON example after %s", marker).isTrue();
        return block.group(1);
    }

    /** The JSON in back quotes that follows {@code marker} on the next line. */
    private static String inline(String readme, String marker) {
        int at = readme.indexOf(marker);
        assertThat(at).as("the README's %s", marker).isNotNegative();
        Matcher code = Pattern.compile("`(\\{.*?})`", Pattern.DOTALL).matcher(readme);
        assertThat(code.find(at + marker.length())).isTrue();
        return code.group(1);
    }

    private static String readme() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve("README.md")) || !Files.exists(dir.resolve("breaker-core"))) {
            dir = dir.getParent();
            assertThat(dir)
                    .as("the repository's root, above the working directory")
                    .isNotNull();
        }
        return Files.readString(dir.resolve("README.md"));
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}
}
