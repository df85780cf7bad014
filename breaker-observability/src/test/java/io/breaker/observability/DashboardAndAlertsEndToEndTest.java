package io.breaker.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.observability.app.ObservedApplication;
import io.breaker.redis.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped rules and dashboard against a real {@code prometheus} scraping a running application
 * with a Redis-shared breaker, every second. The rules are loaded as shipped except that each
 * {@code for:} is cut to 5 s, so that an alert goes pending and then firing within the test; the
 * expressions are the shipped ones. No assertion is about time: waits are bounded polls.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardAndAlertsEndToEndTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @TempDir
    static Path directory;

    private static final String JOB = "observed";
    private static final String BREAKER = "inventory";
    /** Generous for a machine busy with other builds; the happy path takes a few seconds. */
    private static final Duration WITHIN = Duration.ofSeconds(30);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private static ConfigurableApplicationContext app;
    private static String target;
    private static PrometheusServer prometheus;
    private static ScheduledExecutorService traffic;

    @BeforeAll
    static void startTheApplicationAndPrometheus() throws Exception {
        Path binary = PrometheusTools.require("prometheus");
        app = new SpringApplicationBuilder(ObservedApplication.class)
                .run(
                        "--server.port=0",
                        "--spring.application.name=observed",
                        "--management.endpoints.web.exposure.include=prometheus",
                        "--spring.data.redis.host=127.0.0.1",
                        "--spring.data.redis.port=" + redis.port(),
                        "--breakers.store.type=redis",
                        "--breakers.store.timeout=250ms", // generous: this machine runs other builds
                        "--breakers.instances.inventory.sliding-window-size=4",
                        "--breakers.instances.inventory.minimum-number-of-calls=4",
                        "--breakers.instances.inventory.failure-rate-threshold=50",
                        "--breakers.instances.inventory.slow-call-duration-threshold=2s",
                        "--breakers.instances.inventory.slow-call-rate-threshold=80",
                        "--breakers.instances.inventory.wait-duration-in-open-state=5m",
                        // Every permitted call is delayed a little: the injected-faults series has data too.
                        "--breakers.faults.inventory.latency=1ms");
        target = "127.0.0.1:" + app.getEnvironment().getRequiredProperty("local.server.port");
        assertThat(call("/inventory")).isEqualTo(200); // the breaker exists, CLOSED, before the first scrape
        String rules = PrometheusTools.resource(PrometheusTools.RULES).replaceAll("(?m)^(\\s+for:) \\S+$", "$1 5s");
        assertThat(rules).contains("for: 5s").doesNotContain("for: 1m", "for: 2m");
        prometheus = PrometheusServer.start(binary, directory, JOB, target, "/actuator/prometheus", rules);
        // The counters must be scraped at 0 before the trip, or increase() sees no increase.
        await(() ->
                result(prometheus.query("breaker_transitions_total{name=\"inventory\", from=\"closed\", to=\"open\"}"))
                                .size()
                        == 1);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (traffic != null) {
            traffic.shutdownNow();
        }
        if (prometheus != null) {
            prometheus.close();
        }
        if (app != null) {
            app.close();
        }
    }

    /**
     * Trips the breaker once per class and keeps calling it (rejected calls) until the class ends, so
     * that each test can run alone.
     */
    private static synchronized void tripTheBreakerAndKeepCallingIt() {
        if (traffic != null) {
            return;
        }
        // With the success made at start-up, 3 failures fill the window of 4 at 75 %: OPEN.
        for (int i = 0; i < 3; i++) {
            assertThat(call("/inventory?fail=true")).isEqualTo(502);
        }
        assertThat(call("/inventory?fail=true")).isEqualTo(503);
        traffic = Executors.newSingleThreadScheduledExecutor();
        traffic.scheduleAtFixedRate(() -> call("/inventory"), 0, 100, TimeUnit.MILLISECONDS);
    }

    @Test
    @Order(1)
    void aTrippedBreakerRaisesOpenedAndRejectingWhichGoesPendingThenFiring() {
        tripTheBreakerAndKeepCallingIt();

        List<String> rejectingStates = new ArrayList<>();
        Map<String, JsonNode> firing = new LinkedHashMap<>();
        await(() -> {
            for (JsonNode alert : prometheus.alerts().path("data").path("alerts")) {
                String name = alert.path("labels").path("alertname").asText();
                if (!BREAKER.equals(alert.path("labels").path("name").asText())) {
                    continue;
                }
                String state = alert.path("state").asText();
                if (name.equals("BreakerRejectingCalls")
                        && (rejectingStates.isEmpty()
                                || !rejectingStates
                                        .get(rejectingStates.size() - 1)
                                        .equals(state))) {
                    rejectingStates.add(state);
                }
                if (state.equals("firing")) {
                    firing.put(name, alert);
                }
            }
            return firing.containsKey("BreakerOpened") && firing.containsKey("BreakerRejectingCalls");
        });

        assertThat(rejectingStates).containsExactly("pending", "firing");
        JsonNode opened = firing.get("BreakerOpened");
        assertThat(opened.path("labels").path("severity").asText()).isEqualTo("warning");
        assertThat(opened.path("labels").path("job").asText()).isEqualTo(JOB);
        assertThat(opened.path("labels").path("instance").asText()).isEqualTo(target);
        assertThat(opened.path("annotations").path("summary").asText())
                .isEqualTo("Breaker inventory opened on " + target);
        assertThat(firing.get("BreakerRejectingCalls")
                        .path("annotations")
                        .path("description")
                        .asText())
                .startsWith("Breaker inventory of observed on " + target + " has been rejecting calls");
        assertThat(firing).doesNotContainKeys("BreakerFlapping", "BreakerStuckOpen", "BreakerFleetDisagrees");
    }

    @Test
    @Order(2)
    void everyDashboardQueryRunsReturnsDataAndNamesOnlyExportedMetrics() throws IOException {
        tripTheBreakerAndKeepCallingIt();
        // Every panel has data once Prometheus has scraped the open breaker and two rejections.
        await(() -> result(prometheus.query("breaker_state{name=\"inventory\", state=\"open\"} == 1"))
                        .size()
                == 1);
        await(() -> result(prometheus.query("increase(breaker_calls_rejected_total{name=\"inventory\"}[1m]) > 0"))
                        .size()
                == 1);
        Set<String> exported = exportedMetricNames();
        JsonNode dashboard = JSON.readTree(PrometheusTools.resource(PrometheusTools.DASHBOARD));
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode panelTarget : panel.path("targets")) {
                expressions.add(panelTarget.path("expr").asText());
            }
        }
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(12);

        for (String expression : expressions) {
            String query = substitute(expression);
            assertThat(PromQl.metricNames(query)).as(query).isNotEmpty().isSubsetOf(exported);
            JsonNode answer = prometheus.query(query);
            assertThat(answer.path("status").asText())
                    .as(query + " -> " + answer)
                    .isEqualTo("success");
            assertThat(result(answer)).as("data for " + query).isNotEmpty();
        }

        // The variables' label_values(...) queries, through the label values API.
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            String definition = variable.path("definition").asText();
            if (definition.startsWith("label_values(")) {
                String inner = definition.substring("label_values(".length(), definition.length() - 1);
                int comma = inner.lastIndexOf(',');
                String selector = substitute(inner.substring(0, comma).trim());
                String label = inner.substring(comma + 1).trim();
                assertThat(PromQl.metricNames(selector)).isSubsetOf(exported);
                assertThat(prometheus.labelValues(label, selector).path("data"))
                        .as(definition)
                        .isNotEmpty();
            }
        }
    }

    @Test
    @Order(3)
    void everyAlertExpressionRunsAndNamesOnlyExportedMetrics() {
        Set<String> exported = exportedMetricNames();
        List<Map<String, Object>> alerts = AlertRulesTest.alerts(PrometheusTools.resource(PrometheusTools.RULES));
        assertThat(alerts).hasSize(7);
        for (Map<String, Object> alert : alerts) {
            String expression = (String) alert.get("expr");
            assertThat(PromQl.metricNames(expression))
                    .as(expression)
                    .isNotEmpty()
                    .isSubsetOf(exported);
            assertThat(prometheus.query(expression).path("status").asText())
                    .as(expression)
                    .isEqualTo("success");
        }
    }

    private static String substitute(String expression) {
        return expression
                .replace("$job", JOB)
                .replace("$instance", target)
                .replace("$name", BREAKER)
                .replace("$__rate_interval", "1m");
    }

    /** The metric names the application exports, from its own /actuator/prometheus. */
    private static Set<String> exportedMetricNames() {
        Set<String> names = new LinkedHashSet<>();
        for (String line : get("/actuator/prometheus").lines().toList()) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int end = line.indexOf('{');
                names.add(line.substring(0, end >= 0 ? end : line.indexOf(' ')));
            }
        }
        assertThat(names).contains("breaker_state", "breaker_store_acting_alone");
        return names;
    }

    private static JsonNode result(JsonNode answer) {
        return answer.path("data").path("result");
    }

    private static int call(String path) {
        try {
            return HTTP.send(request(path), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String get(String path) {
        try {
            return HTTP.send(request(path), HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create("http://" + target + path))
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + WITHIN.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime())
                    .as("condition not met within " + WITHIN + "; prometheus log:\n" + prometheus.log())
                    .isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
