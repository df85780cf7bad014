package io.breaker.spring.actuate;

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
import org.springframework.context.annotation.Bean;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/operations.md's example of the stream is what a client of {@code /actuator/breakers/stream}
 * reads: the {@code retry:} line, the snapshot, a transition (a wholesaler tripped by its failure rate)
 * and the end of the stream, each line as shown where the example shows it whole, and starting and
 * ending as shown where it cuts it with {@code ...}; times are any time. The stream lasts 2 s here
 * instead of 60 s: its end reason says so. (The keep-alive comment comes after 15 s of quiet, which
 * this stream never has.)
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = OperationsDocStreamExampleTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.sliding-window-size=4",
            "breakers.instances.wholesaler.minimum-number-of-calls=4"
        })
@Tag(BootLine.TAG)
class OperationsDocStreamExampleTest {

    static final Duration LIFETIME = Duration.ofSeconds(2);

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @Test
    void theStreamsEventsAreTheExamples() throws Exception {
        List<String> shown = DocExamples.of("docs/operations.md")
                .block("curl -N localhost:8080/actuator/breakers/stream", "text")
                .lines()
                .filter(line -> !line.isEmpty() && !line.startsWith(":"))
                .map(line -> line.replace(
                        "a stream lasts " + BreakerEventStream.LIFETIME.toSeconds() + " s",
                        "a stream lasts " + LIFETIME.toSeconds() + " s"))
                .toList();

        HttpResponse<Stream<String>> response = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers/stream"))
                                .build(),
                        HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        List<String> lines = new ArrayList<>();
        Iterator<String> read = response.body().iterator();
        try {
            while (lines.stream().noneMatch(line -> line.startsWith("data: {\"breakers\""))) {
                assertThat(read.hasNext()).as("the snapshot, after %s", lines).isTrue();
                lines.add(read.next());
            }
            CircuitBreaker wholesaler = registry.breaker("wholesaler");
            for (int i = 0; i < 4; i++) {
                try {
                    wholesaler.execute(() -> {
                        throw new IllegalStateException("down");
                    });
                } catch (IllegalStateException expected) {
                    // the fourth failure in a window of 4 opens the breaker
                }
            }
            read.forEachRemaining(lines::add); // to the end of the stream, after its lifetime
        } finally {
            response.body().close();
        }
        List<String> events = lines.stream()
                .filter(line -> !line.isEmpty() && !line.startsWith(":"))
                .toList();

        assertThat(events).as(String.join("\n", lines)).hasSameSizeAs(shown);
        for (int i = 0; i < shown.size(); i++) {
            assertThat(events.get(i))
                    .as("line %d of\n%s", i, String.join("\n", lines))
                    .matches(DocExamples.linePattern(shown.get(i)));
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        BreakerEventStream breakerEventStream(BreakerRegistry registry) {
            return BreakerEventStream.bind(registry, LIFETIME, System::nanoTime);
        }
    }
}
