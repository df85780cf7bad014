package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.SlidingWindowType;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wire format over HTTP is the actuator's, whatever the application's Jackson settings (here
 * snake_case names, dates and durations as numbers); as in Spring Boot's own endpoints, a field
 * whose value does not apply is left out.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakersEndpointWireFormatTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "spring.jackson.property-naming-strategy=SNAKE_CASE"
        })
@Tag(BootLine.TAG)
class BreakersEndpointWireFormatTest {

    /** Dates and durations as numbers, under the prefix of this line's Jackson. */
    @DynamicPropertySource
    static void jacksonDateFeatures(DynamicPropertyRegistry properties) {
        properties.add(BootLine.JACKSON_DATE_FEATURES + "write-dates-as-timestamps", () -> "true");
        properties.add(BootLine.JACKSON_DATE_FEATURES + "write-durations-as-timestamps", () -> "true");
    }

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @BeforeEach
    void release() {
        registry.breaker("wholesaler").release();
    }

    @Test
    void theApplicationsJacksonSettingsDoNotChangeTheWireFormat() throws Exception {
        registry.breaker("wholesaler").forceOpen();

        String body = http.send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers/wholesaler"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();

        assertThat(body)
                .contains(
                        "\"stateSince\":\"20",
                        "\"waitDurationInOpenState\":\"PT30S\"",
                        "\"shared\":false",
                        "{\"from\":\"CLOSED\",\"to\":\"FORCED_OPEN\",\"cause\":\"OPERATOR\",\"at\":\"20");
        assertThat(body).doesNotContain("state_since", "wait_duration", "\"store\"", "\"openedAt\"");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        BreakerRegistry breakerRegistry() {
            BreakerConfig config = BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                    .minimumNumberOfCalls(4)
                    .waitDurationInOpenState(Duration.ofSeconds(30))
                    .build();
            BreakerRegistry registry = BreakerRegistry.of(config, Map.of());
            registry.breaker("wholesaler");
            return registry;
        }
    }
}
