package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream, runtime settings and console move with the endpoint: under a base path and a path mapping,
 * and on the management server when it has a port of its own. At the default path they do not answer, so
 * no rule written for the moved endpoint leaves them open there.
 */
@Tag(BootLine.TAG)
class OperatorRoutesPathMappingHttpTest {

    /**
     * A client, and so a connection, per request: on Boot 4.0's Reactor Netty a request sent on a
     * connection kept alive from earlier ones sometimes got no answer at all (the WebFlux variant, in a
     * CI run; as in RuntimeSettingsHttpTest). What this class tests is each answer, not connection reuse.
     */
    private static HttpClient http() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            classes = App.class,
            properties = {
                "management.endpoints.web.exposure.include=breakers",
                "management.endpoints.web.base-path=/manage",
                "management.endpoints.web.path-mapping.breakers=circuit-breakers",
                "breakers.console.enabled=true",
                "breakers.instances.wholesaler.failure-rate-threshold=50"
            })
    class UnderAPathMapping extends UnderAPathMappingTests {}

    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            classes = App.class,
            properties = {
                "management.server.port=0",
                "management.endpoints.web.exposure.include=breakers",
                "management.endpoints.web.path-mapping.breakers=circuit-breakers",
                "breakers.console.enabled=true",
                "breakers.instances.wholesaler.failure-rate-threshold=50"
            })
    class OnAManagementPortOfItsOwn extends OnAManagementPortOfItsOwnTests {}

    /** What {@link UnderAPathMapping} checks, on either web stack. */
    abstract static class UnderAPathMappingTests {

        @LocalServerPort
        private int port;

        @Autowired
        private BreakerRegistry registry;

        @Test
        void everyRouteAnswersUnderTheMappedPath() throws Exception {
            String endpoint = "http://localhost:" + port + "/manage/circuit-breakers";

            assertThat(send("GET", endpoint + "/wholesaler", null).statusCode()).isEqualTo(200);
            HttpResponse<String> config = send("GET", endpoint + "/wholesaler/config", null);
            assertThat(config.statusCode()).isEqualTo(200);
            assertThat(config.body()).contains("\"failure-rate-threshold\":{\"value\":50.0");
            assertThat(firstEvent(endpoint + "/stream")).startsWith("event: snapshot");
            HttpResponse<String> console = send("GET", endpoint + "/console", null);
            assertThat(console.statusCode()).isEqualTo(200);
            assertThat(console.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
            assertThat(send("GET", endpoint + "/console/console.js", null).statusCode())
                    .isEqualTo(200);

            HttpResponse<String> changed =
                    send("POST", endpoint + "/wholesaler/config", "{\"failure-rate-threshold\": 30}");
            assertThat(changed.statusCode()).isEqualTo(200);
            assertThat(registry.breaker("wholesaler").getConfig().getFailureRateThreshold())
                    .isEqualTo(30f);
            assertThat(send("DELETE", endpoint + "/wholesaler/config", null).statusCode())
                    .isEqualTo(200);
        }

        @Test
        void nothingAnswersAtTheUnmappedPathAndNothingChangesThere() throws Exception {
            for (String old : new String[] {"/actuator/breakers", "/manage/breakers"}) {
                String endpoint = "http://localhost:" + port + old;
                assertThat(send("GET", endpoint + "/wholesaler/config", null).statusCode())
                        .as(old)
                        .isEqualTo(404);
                assertThat(send("GET", endpoint + "/stream", null).statusCode())
                        .as(old)
                        .isEqualTo(404);
                assertThat(send("GET", endpoint + "/console", null).statusCode())
                        .as(old)
                        .isEqualTo(404);
                assertThat(send("POST", endpoint + "/wholesaler/config", "{\"failure-rate-threshold\": 100}")
                                .statusCode())
                        .as(old)
                        .isEqualTo(404);
                assertThat(send("DELETE", endpoint + "/wholesaler/config", null).statusCode())
                        .as(old)
                        .isEqualTo(404);
            }
            assertThat(registry.breaker("wholesaler").getConfig().getFailureRateThreshold())
                    .isEqualTo(50f);
        }
    }

    /** What {@link OnAManagementPortOfItsOwn} checks, on either web stack. */
    abstract static class OnAManagementPortOfItsOwnTests {

        @LocalServerPort
        private int port;

        @Autowired
        private Environment environment;

        @Test
        void theRoutesAreOnTheManagementServerOnly() throws Exception {
            int management = environment.getRequiredProperty("local.management.port", Integer.class);
            assertThat(management).isNotEqualTo(port);
            String endpoint = "http://localhost:" + management + "/actuator/circuit-breakers";

            assertThat(send("GET", endpoint + "/wholesaler/config", null).statusCode())
                    .isEqualTo(200);
            assertThat(firstEvent(endpoint + "/stream")).startsWith("event: snapshot");
            assertThat(send("GET", endpoint + "/console", null).statusCode()).isEqualTo(200);

            for (String path : new String[] {
                "/actuator/circuit-breakers/wholesaler/config",
                "/actuator/circuit-breakers/stream",
                "/actuator/circuit-breakers/console",
                "/actuator/breakers/stream"
            }) {
                assertThat(send("GET", "http://localhost:" + port + path, null).statusCode())
                        .as(path)
                        .isEqualTo(404);
            }
        }
    }

    /** One request; {@code headers} are names and values, one after the other. */
    static HttpResponse<String> send(String method, String uri, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The first event line of a stream's answer, after its {@code retry:} (the stream itself goes on). */
    static String firstEvent(String uri) throws Exception {
        HttpResponse<InputStream> response = http().send(
                        HttpRequest.newBuilder(URI.create(uri))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).as(uri).isEqualTo(200);
        try (BufferedReader body = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (String line = body.readLine(); line != null; line = body.readLine()) {
                if (line.startsWith("event:")) {
                    return line;
                }
            }
            return "";
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}
}
