package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.TestUsers;
import io.breaker.spring.test.WithMetricsExport;
import org.junit.jupiter.api.BeforeEach;
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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /actuator/breakers} over real HTTP. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakersEndpointHttpTest.App.class,
        properties = "management.endpoints.web.exposure.include=breakers,health,prometheus")
@WithMetricsExport
@ExtendWith(OutputCaptureExtension.class)
@Tag(BootLine.TAG)
class BreakersEndpointHttpTest {

    private static final String JSON = "application/json";

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    private CircuitBreaker wholesaler;

    @Autowired
    private DeliveryService delivery;

    @BeforeEach
    void resetWholesaler() {
        wholesaler = registry.breaker("wholesaler");
        wholesaler.release();
        delivery.reset();
    }

    @Test
    void listsEveryBreaker() throws Exception {
        registry.breaker("payments");

        HttpResponse<String> response = get("/actuator/breakers");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"breakers\":[", "\"name\":\"payments\"", "\"name\":\"wholesaler\"");
    }

    @Test
    void showsOneBreakerWithItsStableFields() throws Exception {
        HttpResponse<String> response = get("/actuator/breakers/wholesaler");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains(
                        "\"name\":\"wholesaler\"",
                        "\"state\":\"CLOSED\"",
                        "\"stateSince\":",
                        "\"failureRate\":",
                        "\"slowCallRate\":",
                        "\"callsInWindow\":",
                        "\"failedCalls\":",
                        "\"slowCalls\":",
                        "\"rejectedCalls\":",
                        "\"config\":{",
                        "\"failureRateThreshold\":50.0",
                        "\"waitDurationInOpenState\":\"PT30S\"",
                        "\"transitions\":[");
    }

    @Test
    void anUnknownBreakerIsNotFound() throws Exception {
        HttpResponse<String> response = get("/actuator/breakers/nobody");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("No circuit breaker named 'nobody'");
    }

    @Test
    void forcingOpenRejectsCallsAndShowsAsAnOperatorTransition() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/wholesaler", "{\"state\":\"OPEN\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains(
                        "\"requested\":\"OPEN\"",
                        "\"previousState\":\"CLOSED\"",
                        "\"state\":\"FORCED_OPEN\"",
                        "\"changed\":true");
        assertThat(delivery.days("0-19-852663-6")).isEqualTo(DeliveryService.FALLBACK);
        assertThat(delivery.calls()).isZero();
        assertThat(get("/actuator/breakers/wholesaler").body())
                .contains(
                        "\"state\":\"FORCED_OPEN\"",
                        "{\"from\":\"CLOSED\",\"to\":\"FORCED_OPEN\",\"cause\":\"OPERATOR\"");
    }

    @Test
    void forcingClosedLetsCallsThroughEvenWhenTheyAllFail() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/wholesaler", "{\"state\":\"CLOSED\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        delivery.failing(true);
        for (int i = 0; i < 10; i++) {
            assertThat(delivery.days("0-19-852663-6")).isEqualTo(DeliveryService.FALLBACK);
        }
        delivery.failing(false);
        assertThat(delivery.days("0-19-852663-6")).isEqualTo(3);
        assertThat(delivery.calls()).isEqualTo(11);
        assertThat(wholesaler.getState()).isEqualTo(State.FORCED_CLOSED);
    }

    @Test
    void autoReturnsAForcedBreakerToNormalOperation() throws Exception {
        wholesaler.forceOpen();

        HttpResponse<String> response = post("/actuator/breakers/wholesaler", "{\"state\":\"AUTO\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"previousState\":\"FORCED_OPEN\"", "\"state\":\"CLOSED\"");
        assertThat(delivery.days("0-19-852663-6")).isEqualTo(3);
        assertThat(delivery.calls()).isEqualTo(1);
    }

    @Test
    void aWriteToAnUnknownBreakerIsNotFoundAndCreatesNothing() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/ghost", "{\"state\":\"OPEN\"}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(registry.find("ghost")).isEmpty();
    }

    @Test
    void aMissingStateIsABadRequestNamingTheAllowedValues() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/wholesaler", "{}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("state must be one of OPEN, CLOSED, AUTO", "\"allowedStates\":[\"OPEN\",\"CLOSED\",\"AUTO\"]")
                .doesNotContain("Exception", "\tat ");
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void anUnknownStateIsABadRequestNamingTheAllowedValues() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/wholesaler", "{\"state\":\"SIDEWAYS\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("state must be one of OPEN, CLOSED, AUTO; was 'SIDEWAYS'")
                .doesNotContain("Exception", "\tat ");
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aStateThatIsNoTextIsABadRequestNamingTheAllowedValues() throws Exception {
        Map<String, String> bodies =
                Map.of("{\"state\":[\"OPEN\"]}", "a JSON array", "{\"state\":{\"v\":\"OPEN\"}}", "a JSON object");
        for (Map.Entry<String, String> body : bodies.entrySet()) {
            HttpResponse<String> response = post("/actuator/breakers/wholesaler", body.getKey());

            assertThat(response.statusCode()).as(body.getKey()).isEqualTo(400);
            assertThat(response.body())
                    .as(body.getKey())
                    .contains(
                            "state must be one of OPEN, CLOSED, AUTO; was " + body.getValue() + " (it is not a text)",
                            "\"allowedStates\":[\"OPEN\",\"CLOSED\",\"AUTO\"]");
        }
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void anUnknownKeyInTheBodyIsRefusedNamingTheAllowedKeys() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/wholesaler", "{\"state\":\"OPEN\",\"force\":true}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains(
                        "\"message\":\"the body of a force takes the keys state and name, not 'force', as in"
                                + " {\\\"state\\\": \\\"OPEN\\\"}\"",
                        "\"allowedKeys\":[\"state\",\"name\"]");
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aBodyThatIsNotJsonIsABadRequestWithoutAStackTrace() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/wholesaler", "state=OPEN");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).doesNotContain("\tat ", "Exception:");
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void logsEachChangeAtWarnWithTheAuthenticatedPrincipal(CapturedOutput output) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/actuator/breakers/wholesaler"))
                .header("Content-Type", JSON)
                .header("X-Test-User", "alice")
                .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"OPEN\"}"))
                .build();

        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"principal\":\"alice\"");
        assertThat(output.getOut())
                .containsPattern("WARN .*io\\.breaker\\.operator.*breaker=wholesaler requested=OPEN "
                        + "from=CLOSED to=FORCED_OPEN changed=true principal=alice");
    }

    @Test
    void logsAnAnonymousChangeWithoutAPrincipal(CapturedOutput output) throws Exception {
        post("/actuator/breakers/wholesaler", "{\"state\":\"CLOSED\"}");

        assertThat(output.getOut())
                .contains("breaker=wholesaler requested=CLOSED from=CLOSED to=FORCED_CLOSED "
                        + "changed=true principal=none");
    }

    @Test
    void prometheusScrapeHasTheSeriesTheAlertExamplesUse() throws Exception {
        wholesaler.forceOpen();
        assertThat(wholesaler.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);

        String scrape = get("/actuator/prometheus").body();

        assertThat(scrape)
                .contains(
                        "breaker_state{name=\"wholesaler\",state=\"forced_open\"} 1.0",
                        "breaker_state{name=\"wholesaler\",state=\"closed\"} 0.0",
                        "breaker_calls_rejected_total{name=\"wholesaler\"}",
                        "breaker_transitions_total{from=\"closed\",name=\"wholesaler\",to=\"open\"} 0.0",
                        "breaker_transitions_total{from=\"closed\",name=\"wholesaler\",to=\"forced_open\"}",
                        "breaker_calls_seconds_count{name=\"wholesaler\",outcome=\"success\"}",
                        "breaker_failure_rate_percent{name=\"wholesaler\"}",
                        "breaker_slow_call_rate_percent{name=\"wholesaler\"}",
                        "# HELP breaker_calls_rejected_total Calls the breaker rejected");
    }

    @Test
    void aNameInTheBodyCannotRedirectAWriteToAnotherBreaker() throws Exception {
        CircuitBreaker other = registry.breaker("payments");
        other.release();

        HttpResponse<String> response =
                post("/actuator/breakers/wholesaler", "{\"state\":\"OPEN\",\"name\":\"payments\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("the URL");
        assertThat(other.getState()).isEqualTo(State.CLOSED);
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aNameInABodyOfTheActuatorsOwnMediaTypeCannotRedirectAWriteEither() throws Exception {
        CircuitBreaker other = registry.breaker("payments");
        other.release();

        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri("/actuator/breakers/wholesaler"))
                        .header("Content-Type", "application/vnd.spring-boot.actuator.v3+json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"OPEN\",\"name\":\"payments\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(other.getState()).isEqualTo(State.CLOSED);
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aNameInTheQueryCannotRedirectAWriteToAnotherBreaker() throws Exception {
        CircuitBreaker other = registry.breaker("payments");
        other.release();

        HttpResponse<String> response = post("/actuator/breakers/wholesaler?name=payments", "{\"state\":\"OPEN\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(other.getState()).isEqualTo(State.CLOSED);
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aStateInTheQueryIsNotApplied() throws Exception {
        HttpResponse<String> response = post("/actuator/breakers/wholesaler?state=OPEN", "");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(wholesaler.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aNameInTheBodyThatRepeatsTheUrlIsHarmless() throws Exception {
        HttpResponse<String> response =
                post("/actuator/breakers/wholesaler", "{\"state\":\"OPEN\",\"name\":\"wholesaler\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(wholesaler.getState()).isEqualTo(State.FORCED_OPEN);
    }

    @Test
    void aNameWithLettersOfAnyScriptIsReachable() throws Exception {
        registry.breaker("zahlung-ü-支付");
        String encoded = java.net.URLEncoder.encode("zahlung-ü-支付", java.nio.charset.StandardCharsets.UTF_8);

        HttpResponse<String> response = get("/actuator/breakers/" + encoded);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("zahlung-ü-支付");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", JSON)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    /** A protected call, as an application has it. */
    static class DeliveryService {

        static final int FALLBACK = 21;

        private final AtomicInteger calls = new AtomicInteger();
        private volatile boolean failing;

        @CircuitProtected(name = "wholesaler", fallbackMethod = "fallback")
        public int days(String isbn) {
            calls.incrementAndGet();
            if (failing) {
                throw new IllegalStateException("wholesaler down");
            }
            return 3;
        }

        private int fallback(String isbn, Throwable failure) {
            return FALLBACK;
        }

        void failing(boolean failing) {
            this.failing = failing;
        }

        int calls() {
            return calls.get();
        }

        void reset() {
            failing = false;
            calls.set(0);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TestUsers.class)
    static class App {

        @Bean
        BreakerRegistry breakerRegistry() {
            BreakerConfig config = BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                    .minimumNumberOfCalls(4)
                    .waitDurationInOpenState(Duration.ofSeconds(30))
                    .build();
            return BreakerRegistry.of(config, Map.of());
        }

        @Bean
        DeliveryService deliveryService() {
            return new DeliveryService();
        }
    }
}
