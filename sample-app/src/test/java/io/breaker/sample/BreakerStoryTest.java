package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.breaker.TransitionCause;
import io.breaker.test.BreakerClock;
import io.breaker.test.Breakers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static io.breaker.State.CLOSED;
import static io.breaker.State.FORCED_OPEN;
import static io.breaker.State.HALF_OPEN;
import static io.breaker.State.OPEN;
import static io.breaker.TransitionCause.FAILURE_RATE;
import static io.breaker.TransitionCause.PROBES_SUCCEEDED;
import static io.breaker.TransitionCause.PROBE_FAILED;
import static io.breaker.TransitionCause.WAIT_ELAPSED;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;
import static io.breaker.test.assertj.BreakerAssertions.assertThatTransitions;
import static io.breaker.test.assertj.BreakerAssertions.transition;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's story, over HTTP: healthy, then failing in every way that counts, the breaker opens,
 * nothing reaches the wholesaler while it is open, one probe after the wait (failing: open again;
 * healthy: closed), then an operator forces it open and releases it.
 *
 * <p>The test profile's breaker: a window of the last 10 calls, a verdict from 5, trips at 50%,
 * waits 2 s, on the test kit's virtual clock: the test moves time, it never waits for it.
 */
class BreakerStoryTest extends BookshopHttpTest {

    private static final String EFFECTIVE_JAVA = "9780134685991"; // 2 days
    private static final String DESIGN_PATTERNS_ISBN_10 = "0-201-63361-2"; // 978-0-201-63361-0, 5 days
    private static final String UNKNOWN_BOOK = "9781234567897";
    private static final Duration WAIT = Duration.ofSeconds(2);

    @Autowired
    BreakerClock clock;

    @BeforeEach
    void healthyWholesalerAndFreshBreaker() {
        deliveryTime(EFFECTIVE_JAVA); // warms up both HTTP clients before the counted story starts
        switchWholesaler("healthy");
        Breakers.reset();
    }

    @Test
    void breakerOpensFailsFastProbesOnceClosesAndObeysTheOperator() {
        // Healthy: four live answers (ISBN-10 accepted), four successes in the window.
        for (String isbn : List.of(EFFECTIVE_JAVA, DESIGN_PATTERNS_ISBN_10, EFFECTIVE_JAVA, DESIGN_PATTERNS_ISBN_10)) {
            HttpResponse<String> live = deliveryTime(isbn);
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(servedBy(live)).isEqualTo("live");
            assertThat(json(live).get("days").asInt()).isIn(2, 5);
            assertThat(json(live).has("note")).as("a live answer has no note").isFalse();
        }
        assertThat(json(deliveryTime(DESIGN_PATTERNS_ISBN_10)).get("isbn").asText())
                .as("an ISBN-10 is asked as its ISBN-13")
                .isEqualTo("9780201633610");
        assertThatBreaker("wholesaler").hasFailedCalls(0);

        // A business answer: 404 passes through, served live, not counted, no fallback.
        long before404 = wholesalerRequests();
        HttpResponse<String> unknown = deliveryTime(UNKNOWN_BOOK);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(servedBy(unknown)).isEqualTo("live");
        assertThat(unknown.body()).contains("does not know the book " + UNKNOWN_BOOK);
        assertThat(wholesalerRequests()).isEqualTo(before404 + 1);
        assertThatBreaker("wholesaler").hasFailedCalls(0);

        // Bad input never reaches the wholesaler.
        HttpResponse<String> invalid = deliveryTime("978-0-13-468599-2");
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(json(invalid).get("detail").asText()).contains("check digit");
        assertThat(wholesalerRequests()).isEqualTo(before404 + 1);

        // Each kind of failure counts and is answered by the fallback: 503, 429, read timeout, refused connection.
        // 5 successes (4 + the ISBN-10 check) and 4 failures: 44% stays CLOSED, ...
        assertFailureCounted("failing", 1, true);
        assertFailureCounted("throttling", 2, true);
        assertFailureCounted("slow", 3, true);
        assertFailureCounted("down", 4, false);
        assertThatBreaker("wholesaler").isClosed();
        // ... and a fifth failure makes 5 of 10: OPEN.
        assertFailureCounted("failing", 5, true);
        assertThatBreaker("wholesaler").isOpen().hasFailureRate(50.0);
        JsonNode open = breaker("wholesaler");
        assertThat(open.get("lastFailureType").asText()).endsWith("WholesalerUnavailableException");
        assertThat(open.get("nextProbeAt").asText())
                .isEqualTo(clock.instant().plus(WAIT).toString());

        // OPEN: answers come from the fallback and nothing reaches the wholesaler, until the very end of the wait.
        long whileOpen = wholesalerRequests();
        clock.advance(WAIT.minusMillis(1));
        HttpResponse<String> rejected = deliveryTime(EFFECTIVE_JAVA);
        assertThat(rejected.statusCode()).isEqualTo(200);
        assertThat(servedBy(rejected)).isEqualTo("fallback-open");
        assertThat(json(rejected).get("days").isNull()).isTrue();
        assertThat(json(rejected).get("note").asText()).contains("email");
        assertThat(wholesalerRequests()).isEqualTo(whileOpen);
        assertThatBreaker("wholesaler").rejected(1);

        // After the wait, with the wholesaler slow, a burst of 5 concurrent calls: exactly one is the probe;
        // it times out, and the breaker opens again.
        switchWholesaler("slow");
        clock.advance(Duration.ofMillis(1));
        List<HttpResponse<String>> burst = deliveryTimeBurst(EFFECTIVE_JAVA, 5);
        assertThat(burst).allSatisfy(answer -> assertThat(answer.statusCode()).isEqualTo(200));
        assertThat(burst)
                .filteredOn(answer -> servedBy(answer).equals("fallback-failed"))
                .hasSize(1);
        assertThat(burst)
                .filteredOn(answer -> servedBy(answer).equals("fallback-open"))
                .hasSize(4);
        assertThat(wholesalerRequests())
                .as("exactly one probe reached the wholesaler")
                .isEqualTo(whileOpen + 1);
        assertThatBreaker("wholesaler").isOpen().hasTransitioned(HALF_OPEN, OPEN);

        // The wholesaler recovers; after the next wait one probe succeeds and closes the breaker.
        switchWholesaler("healthy");
        clock.advance(WAIT);
        HttpResponse<String> probe = deliveryTime(EFFECTIVE_JAVA);
        assertThat(servedBy(probe)).isEqualTo("live");
        assertThat(json(probe).get("days").asInt()).isEqualTo(2);
        assertThat(wholesalerRequests()).isEqualTo(whileOpen + 2);
        assertThatBreaker("wholesaler").isClosed();

        // The operator forces it OPEN: the healthy wholesaler is not asked ...
        HttpResponse<String> forced = postState("wholesaler", "{\"state\":\"OPEN\"}", OPERATOR, OPERATOR_PASSWORD);
        assertThat(forced.statusCode()).isEqualTo(200);
        assertThat(json(forced).get("state").asText()).isEqualTo("FORCED_OPEN");
        assertThat(json(forced).get("principal").asText()).isEqualTo(OPERATOR);
        long whileForced = wholesalerRequests();
        assertThat(servedBy(deliveryTime(EFFECTIVE_JAVA))).isEqualTo("fallback-open");
        assertThat(wholesalerRequests()).isEqualTo(whileForced);
        assertThatBreaker("wholesaler").isForcedOpen();

        // ... until released: CLOSED and live again.
        assertThat(postState("wholesaler", "{\"state\":\"AUTO\"}", OPERATOR, OPERATOR_PASSWORD)
                        .statusCode())
                .isEqualTo(200);
        assertThat(servedBy(deliveryTime(EFFECTIVE_JAVA))).isEqualTo("live");
        assertThat(wholesalerRequests()).isEqualTo(whileForced + 1);

        assertThatTransitions()
                .containsExactly(
                        transition("wholesaler", CLOSED, OPEN, FAILURE_RATE),
                        transition("wholesaler", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("wholesaler", HALF_OPEN, OPEN, PROBE_FAILED),
                        transition("wholesaler", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("wholesaler", HALF_OPEN, CLOSED, PROBES_SUCCEEDED),
                        transition("wholesaler", CLOSED, FORCED_OPEN, TransitionCause.OPERATOR),
                        transition("wholesaler", FORCED_OPEN, CLOSED, TransitionCause.OPERATOR));
    }

    @Test
    void actuatorShowsTheBreakerInHealthMetricsAndPrometheusWithHealthDetailsForOperatorsOnly() {
        deliveryTime(EFFECTIVE_JAVA);

        HttpResponse<String> all = get("/actuator/breakers");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(json(all).get("breakers").findValuesAsText("name")).contains("wholesaler");

        // Anyone sees the health's components; their details (a breaker's state, the disk's path) only an operator.
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(json(health).at("/components/breakers/status").asText()).isEqualTo("UP");
        assertThat(health.body()).doesNotContain("wholesaler", "path");
        HttpResponse<String> details = getAsOperator("/actuator/health");
        assertThat(details.body()).contains("wholesaler", "path");

        assertThat(get("/actuator/metrics").statusCode()).isEqualTo(200);
        HttpResponse<String> prometheus = get("/actuator/prometheus");
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body()).contains("name=\"wholesaler\"");
    }

    /** Switches the wholesaler, makes one call, and checks it failed, was counted and got the fallback. */
    private void assertFailureCounted(String mode, int failedCallsAfter, boolean reachesWholesaler) {
        switchWholesaler(mode);
        long before = wholesalerRequests();
        HttpResponse<String> answer = deliveryTime(EFFECTIVE_JAVA);
        assertThat(answer.statusCode()).as("status with a %s wholesaler", mode).isEqualTo(200);
        assertThat(servedBy(answer)).as("served with a %s wholesaler", mode).isEqualTo("fallback-failed");
        assertThat(json(answer).get("days").isNull()).isTrue();
        assertThat(wholesalerRequests())
                .as("requests reaching a %s wholesaler", mode)
                .isEqualTo(reachesWholesaler ? before + 1 : before);
        assertThatBreaker("wholesaler").as("after a %s wholesaler", mode).hasFailedCalls(failedCallsAfter);
    }
}
