package io.breaker.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.spring.test.BootLine;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A setting turned off with {@code none} in the configuration is shown by the endpoint as off, with the
 * configuration as its source: no {@code value} and no {@code configured} in {@code GET .../config},
 * no {@code slowCallDurationThreshold} in the breaker's {@code config}. The breaker next to it, which
 * leaves the setting unset, shows the default's duration.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = NoneInPropertyFilesHttpTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.defaults.slow-call-duration-threshold=2s",
            "breakers.defaults.max-wait-duration-in-open-state=5m",
            "breakers.instances.dep.slow-call-duration-threshold=none",
            "breakers.instances.dep.max-wait-duration-in-open-state=none",
            "breakers.instances.other.failure-rate-threshold=30"
        })
@Tag(BootLine.TAG)
class NoneInPropertyFilesHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Test
    void theSettingsShowTheSettingOffWithTheConfigurationAsItsSource() throws Exception {
        JsonNode dep = get("/actuator/breakers/dep/config").get("settings");
        JsonNode other = get("/actuator/breakers/other/config").get("settings");

        for (String setting : new String[] {"slow-call-duration-threshold", "max-wait-duration-in-open-state"}) {
            assertThat(dep.get(setting)).as(setting).isEqualTo(JSON.readTree("{\"source\": \"YAML\"}"));
        }
        assertThat(other.get("slow-call-duration-threshold"))
                .isEqualTo(JSON.readTree("{\"value\": \"PT2S\", \"source\": \"YAML\", \"configured\": \"PT2S\"}"));
        assertThat(other.get("max-wait-duration-in-open-state"))
                .isEqualTo(JSON.readTree("{\"value\": \"PT5M\", \"source\": \"YAML\", \"configured\": \"PT5M\"}"));
    }

    @Test
    void theBreakerShowsNoSlowCallThreshold() throws Exception {
        JsonNode dep = get("/actuator/breakers/dep").get("config");
        JsonNode other = get("/actuator/breakers/other").get("config");

        assertThat(dep.has("slowCallDurationThreshold")).as(dep.toString()).isFalse();
        assertThat(dep.get("maxWaitDurationInOpenState").asText()).isEqualTo("PT10M");
        assertThat(other.get("slowCallDurationThreshold").asText()).isEqualTo("PT2S");
        assertThat(other.get("maxWaitDurationInOpenState").asText()).isEqualTo("PT5M");
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}
}
