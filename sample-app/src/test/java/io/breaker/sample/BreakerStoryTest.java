package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's story, over HTTP: healthy, then failing in every way that counts, the breaker opens,
 * nothing reaches the wholesaler while it is open, one probe after the wait (failing: open again;
 * healthy: closed), then an operator forces it open and releases it.
 *
 * <p>The test profile's breaker: a window of the last 10 calls, a verdict from 5, trips at 50%,
 * waits 2 s. No assertion is about time; the waits are bounded polls.
 */
class BreakerStoryTest extends BookshopHttpTest {

    private static final String EFFECTIVE_JAVA = "9780134685991"; // 2 days
    private static final String DESIGN_PATTERNS_ISBN_10 = "0-201-63361-2"; // 978-0-201-63361-0, 5 days
    private static final String UNKNOWN_BOOK = "9781234567897";
    private static final Duration POLL_DEADLINE = Duration.ofSeconds(30);

    @BeforeEach
    void freshBreakerAndHealthyWholesaler() {
        deliveryTime(EFFECTIVE_JAVA); // warms up both HTTP clients before the counted story starts
        resetBreakerAndWholesaler();
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
        assertThat(breaker("wholesaler").get("failedCalls").asInt()).isZero();

        // A business answer: 404 passes through, served live, not counted, no fallback.
        long before404 = wholesalerRequests();
        HttpResponse<String> unknown = deliveryTime(UNKNOWN_BOOK);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(servedBy(unknown)).isEqualTo("live");
        assertThat(unknown.body()).contains("does not know the book " + UNKNOWN_BOOK);
        assertThat(wholesalerRequests()).isEqualTo(before404 + 1);
        assertThat(breaker("wholesaler").get("failedCalls").asInt()).isZero();

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
        assertThat(breakerState()).isEqualTo("CLOSED");
        assertFailureCounted("down", 4, false);
        assertThat(breakerState()).isEqualTo("CLOSED");
        // ... and a fifth failure makes 5 of 10: OPEN.
        assertFailureCounted("failing", 5, true);
        JsonNode open = breaker("wholesaler");
        assertThat(open.get("state").asText()).isEqualTo("OPEN");
        assertThat(open.get("lastFailureType").asText()).endsWith("WholesalerUnavailableException");
        assertThat(open.get("nextProbeAt").isNull()).isFalse();

        // OPEN: answers come from the fallback and nothing reaches the wholesaler.
        long whileOpen = wholesalerRequests();
        long rejectedBefore = open.get("rejectedCalls").asLong();
        HttpResponse<String> rejected = deliveryTime(EFFECTIVE_JAVA);
        assertThat(rejected.statusCode()).isEqualTo(200);
        assertThat(servedBy(rejected)).isEqualTo("fallback-open");
        assertThat(json(rejected).get("days").isNull()).isTrue();
        assertThat(json(rejected).get("note").asText()).contains("email");
        assertThat(wholesalerRequests()).isEqualTo(whileOpen);
        assertThat(breaker("wholesaler").get("rejectedCalls").asLong()).isGreaterThan(rejectedBefore);

        // After the wait, with the wholesaler slow, bursts of 5 concurrent calls: exactly one is the probe;
        // it times out, and the breaker opens again.
        switchWholesaler("slow");
        List<HttpResponse<String>> burst = pollUntil(
                () -> deliveryTimeBurst(EFFECTIVE_JAVA, 5),
                answers -> answers.stream().anyMatch(answer -> !servedBy(answer).equals("fallback-open")));
        assertThat(burst)
                .filteredOn(answer -> servedBy(answer).equals("fallback-failed"))
                .hasSize(1);
        assertThat(burst).allSatisfy(answer -> assertThat(answer.statusCode()).isEqualTo(200));
        assertThat(wholesalerRequests())
                .as("exactly one probe reached the wholesaler")
                .isEqualTo(whileOpen + 1);
        assertThat(breakerState()).isEqualTo("OPEN");
        assertThat(transitions()).startsWith("HALF_OPEN->OPEN");

        // The wholesaler recovers; after the next wait one probe succeeds and closes the breaker.
        switchWholesaler("healthy");
        long beforeSecondProbe = wholesalerRequests();
        HttpResponse<String> probe = pollUntil(
                () -> deliveryTime(EFFECTIVE_JAVA), answer -> !servedBy(answer).equals("fallback-open"));
        assertThat(servedBy(probe)).isEqualTo("live");
        assertThat(json(probe).get("days").asInt()).isEqualTo(2);
        assertThat(wholesalerRequests()).isEqualTo(beforeSecondProbe + 1);
        assertThat(breakerState()).isEqualTo("CLOSED");
        assertThat(transitions()).startsWith("HALF_OPEN->CLOSED");

        // The operator forces it OPEN: the healthy wholesaler is not asked ...
        HttpResponse<String> forced = postState("wholesaler", "{\"state\":\"OPEN\"}", OPERATOR, OPERATOR_PASSWORD);
        assertThat(forced.statusCode()).isEqualTo(200);
        assertThat(json(forced).get("state").asText()).isEqualTo("FORCED_OPEN");
        assertThat(json(forced).get("principal").asText()).isEqualTo(OPERATOR);
        long whileForced = wholesalerRequests();
        assertThat(servedBy(deliveryTime(EFFECTIVE_JAVA))).isEqualTo("fallback-open");
        assertThat(wholesalerRequests()).isEqualTo(whileForced);
        assertThat(breakerState()).isEqualTo("FORCED_OPEN");

        // ... until released: CLOSED and live again.
        assertThat(postState("wholesaler", "{\"state\":\"AUTO\"}", OPERATOR, OPERATOR_PASSWORD)
                        .statusCode())
                .isEqualTo(200);
        assertThat(breakerState()).isEqualTo("CLOSED");
        assertThat(servedBy(deliveryTime(EFFECTIVE_JAVA))).isEqualTo("live");
        assertThat(wholesalerRequests()).isEqualTo(whileForced + 1);
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
        assertThat(breaker("wholesaler").get("failedCalls").asInt())
                .as("failed calls after a %s wholesaler", mode)
                .isEqualTo(failedCallsAfter);
    }

    /** The breaker's transitions, newest first, as "FROM->TO". */
    private List<String> transitions() {
        return StreamSupport.stream(breaker("wholesaler").get("transitions").spliterator(), false)
                .map(transition -> transition.get("from").asText() + "->"
                        + transition.get("to").asText())
                .toList();
    }

    /** Repeats the call until its answer passes the test, for at most {@link #POLL_DEADLINE}. */
    private static <T> T pollUntil(Supplier<T> call, Predicate<T> done) {
        long deadline = System.nanoTime() + POLL_DEADLINE.toNanos();
        while (true) {
            T answer = call.get();
            if (done.test(answer)) {
                return answer;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Still not done after " + POLL_DEADLINE + "; last answer: " + answer);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
