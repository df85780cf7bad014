package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Fault injection turned on and off at runtime through {@code /actuator/breakers/{name}/config}, over
 * real HTTP: checked as at start-up, audited with the principal, listed among the breaker's settings
 * changes, shown in the breaker's entry, and injected into its calls at once.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = FaultInjectionHttpTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.minimum-number-of-calls=100"
        })
@ExtendWith(OutputCaptureExtension.class)
@Tag(BootLine.TAG)
class FaultInjectionHttpTest {

    private static final String CONFIG = "/actuator/breakers/wholesaler/config";

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @AfterEach
    void backToConfigured() throws Exception {
        send("DELETE", CONFIG, null, null);
    }

    @Test
    void faultsSetThroughTheEndpointAreAuditedShownAndInjected(CapturedOutput output) throws Exception {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        AtomicInteger ran = new AtomicInteger();
        assertThat(send("GET", "/actuator/breakers/wholesaler", null, null).body())
                .doesNotContain("\"faults\":{");

        HttpResponse<String> changed = send(
                "POST",
                CONFIG,
                "{\"fault-failure-rate\": 100, \"fault-exception\": \"java.io.IOException\","
                        + " \"fault-latency\": \"1ms\", \"fault-latency-rate\": 0}",
                "alice");

        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.body())
                .contains(
                        "\"principal\":\"alice\"",
                        "\"fault-failure-rate\":{\"value\":100.0,\"source\":\"RUNTIME\",\"configured\":0.0}",
                        "\"fault-exception\":{\"value\":\"java.io.IOException\",\"source\":\"RUNTIME\","
                                + "\"configured\":\"io.breaker.InjectedFaultException\"}");
        assertThat(output)
                .contains(
                        "io.breaker.operator",
                        "breaker=wholesaler settings={fault-failure-rate=100, fault-exception=java.io.IOException,"
                                + " fault-latency=1ms, fault-latency-rate=0}",
                        "principal=alice");
        assertThat(send("GET", "/actuator/breakers/wholesaler", null, null).body())
                .contains(
                        "\"faults\":{\"failureRate\":100.0,\"exception\":\"java.io.IOException\",\"latency\":\"PT0.001S\","
                                + "\"latencyRate\":0.0}",
                        "\"settingsChanges\":[{\"at\":",
                        "\"fault-failure-rate\":\"100\"");
        assertThatThrownBy(() -> breaker.call(ran::incrementAndGet))
                .isExactlyInstanceOf(IOException.class)
                .hasMessageContaining("'wholesaler'");
        assertThat(ran).hasValue(0);

        HttpResponse<String> off = send("DELETE", CONFIG, null, "bob");

        assertThat(off.statusCode()).isEqualTo(200);
        assertThat(breaker.getConfig().isFaultInjectionEnabled()).isFalse();
        assertThat(breaker.call(ran::incrementAndGet)).isEqualTo(1);
        assertThat(output).contains("fault-failure-rate=configured", "principal=bob");
        assertThat(send("GET", "/actuator/breakers/wholesaler", null, null).body())
                .doesNotContain("\"faults\":{");
    }

    @Test
    void aBadFaultValueIsRefusedWithTheMessageOfStartUp() throws Exception {
        HttpResponse<String> rate = send("POST", CONFIG, "{\"fault-failure-rate\": 150}", "alice");
        HttpResponse<String> type = send("POST", CONFIG, "{\"fault-exception\": \"com.example.Nope\"}", "alice");
        HttpResponse<String> notThrowable =
                send("POST", CONFIG, "{\"fault-exception\": \"java.lang.String\"}", "alice");

        assertThat(rate.statusCode()).isEqualTo(400);
        assertThat(rate.body()).contains("breakers.faults.wholesaler.failure-rate", "a number in [0, 100]");
        assertThat(type.statusCode()).isEqualTo(400);
        assertThat(type.body()).contains("breakers.faults.wholesaler.exception", "no such class on the classpath");
        assertThat(notThrowable.statusCode()).isEqualTo(400);
        assertThat(notThrowable.body()).contains("the class is not a Throwable");
        assertThat(registry.breaker("wholesaler").getConfig().isFaultInjectionEnabled())
                .isFalse();
    }

    private HttpResponse<String> send(String method, String path, String body, String user) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (user != null) {
            request.header(TestUsers.HEADER, user);
        }
        HttpClient fresh =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return fresh.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TestUsers.class)
    static class App {}
}
