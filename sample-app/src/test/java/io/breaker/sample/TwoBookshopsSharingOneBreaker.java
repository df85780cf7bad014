package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.util.TestSocketUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real instances of the bookshop, A and B (two HTTP ports, one store profile and its store), in
 * front of ONE wholesaler (A's simulator; B calls it over HTTP), so the wholesaler's request counter
 * is the fleet's: the breaker trips for both from failures seen by A alone, one probe reaches the
 * wholesaler across both instances after the wait, and an operator's force through one instance's
 * endpoint reaches the other. A subclass names the profile and points the instances at its store.
 *
 * <p>Driven over HTTP only. Test profile breaker: a verdict from 5 calls, trips at 50%, waits 2 s;
 * shared-state cache TTL 300 ms. No assertion is about time; waits are bounded polls.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TwoBookshopsSharingOneBreaker {

    private static final String BOOK = "9780134685991";
    private static final String OPERATOR = "operator";
    private static final String OPERATOR_PASSWORD = "test-operator-secret";
    private static final int MINIMUM_CALLS = 5;
    private static final Duration TTL = Duration.ofMillis(300);
    /** One cache TTL, then a round trip, on a machine busy with other builds. */
    private static final Duration WITHIN_A_TTL = TTL.plusSeconds(3);
    /** The breaker's 2 s wait, with the same slack. */
    private static final Duration WITHIN_THE_WAIT = Duration.ofSeconds(30);

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();
    Instance a;
    Instance b;

    /** The sample's profile that shares the breaker through the store ({@code redis}, {@code dynamodb}). */
    abstract String storeProfile();

    /** Arguments that point an instance at the store this test started. */
    abstract List<String> storeArguments();

    /** What the instances need from the JVM before they start (none by default). */
    void beforeStart() {}

    /** Undoes {@link #beforeStart()} once the instances stopped. */
    void afterStop() {}

    @BeforeAll
    void startTwoInstancesSharingOneStoreAndOneWholesaler() {
        beforeStart();
        int wholesalerPort = TestSocketUtils.findAvailableTcpPort();
        a = start("--bookshop.simulator.port=" + wholesalerPort);
        b = start("--bookshop.simulator.enabled=false", "--bookshop.wholesaler.url=http://127.0.0.1:" + wholesalerPort);
    }

    private Instance start(String... own) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=0",
                "--breakers.store.state-cache-ttl=" + TTL.toMillis() + "ms",
                "--breakers.store.timeout=250ms")); // generous: this machine runs other builds
        args.addAll(storeArguments());
        args.addAll(List.of(own));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
                .profiles("test", storeProfile())
                .run(args.toArray(String[]::new));
        contexts.add(context);
        return new Instance(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }

    @AfterAll
    void stopInstances() {
        contexts.forEach(ConfigurableApplicationContext::close);
        afterStop();
    }

    @BeforeEach
    void healthyWholesalerAndAFreshClosedBreakerOnBoth() {
        a.switchWholesaler("healthy");
        // Through FORCED_OPEN, so that successes B counted in an earlier test are dropped rather than
        // sent into this test's window.
        assertThat(a.postState("OPEN")).isEqualTo(200);
        await(WITHIN_A_TTL, () -> b.call().equals("fallback-open"));
        assertThat(a.postState("AUTO")).isEqualTo(200);
        await(WITHIN_A_TTL, () -> b.call().equals("live"));
        assertThat(a.state()).isEqualTo("CLOSED");
        assertThat(b.state()).isEqualTo("CLOSED");
    }

    @Test
    void failuresThroughOneInstanceTripTheBreakerForBothAndOneProbeReachesTheWholesalerAfterTheWait() {
        // The wholesaler fails; only A is called, until its breaker rejects.
        a.switchWholesaler("failing");
        long beforeFailures = a.wholesalerRequests();
        await(WITHIN_THE_WAIT, () -> a.call().equals("fallback-open"));
        assertThat(a.wholesalerRequests() - beforeFailures).isEqualTo(MINIMUM_CALLS);
        assertThat(a.state()).isEqualTo("OPEN");

        // B was not called: its endpoint shows its cached state (no timer refreshes it). At its first
        // call it learns the fleet's (here from the answer to that call's failure report), so at most
        // that call got through, plus one per failure report whose answer came after the store timeout
        // (its caller went on without it: B's breaker.store.timeouts, as in the fleet's guaranteed bound).
        assertThat(b.state()).isEqualTo("CLOSED");
        long tripped = a.wholesalerRequests();
        long lateBefore = b.storeTimeouts();
        await(WITHIN_A_TTL, () -> {
            b.call();
            return b.state().equals("OPEN");
        });
        assertThat(a.wholesalerRequests() - tripped)
                .as("calls B let through before it knew")
                .isLessThanOrEqualTo(1 + b.storeTimeouts() - lateBefore);

        // After the wait, bursts of concurrent calls on both instances: exactly one is the fleet's probe.
        // The wholesaler is slow, so the probe is still in flight while the rest of its burst is answered;
        // it times out, and the breaker opens again for both.
        a.switchWholesaler("slow");
        long beforeProbe = a.wholesalerRequests();
        List<String> burst = pollUntil(
                WITHIN_THE_WAIT,
                () -> burstOnBoth(4),
                answers -> answers.stream().anyMatch(servedBy -> !servedBy.equals("fallback-open")));
        assertThat(burst)
                .filteredOn(servedBy -> !servedBy.equals("fallback-open"))
                .containsExactly("fallback-failed");
        assertThat(a.wholesalerRequests()).as("one probe across both instances").isEqualTo(beforeProbe + 1);
        assertThat(a.state()).isEqualTo("OPEN");
        assertThat(b.state()).isEqualTo("OPEN");

        // The wholesaler recovers: after the next wait one probe succeeds and closes the breaker for both.
        a.switchWholesaler("healthy");
        long beforeSecondProbe = a.wholesalerRequests();
        int[] calls = {0};
        pollUntil(WITHIN_THE_WAIT, () -> (calls[0]++ % 2 == 0 ? a : b).call(), "live"::equals); // A, B, A, ...
        assertThat(a.wholesalerRequests()).isEqualTo(beforeSecondProbe + 1);
        await(WITHIN_A_TTL, () -> a.call().equals("live") && b.call().equals("live"));
        assertThat(a.state()).isEqualTo("CLOSED");
        assertThat(b.state()).isEqualTo("CLOSED");
    }

    @Test
    void anOperatorsForceThroughOneInstanceIsSeenByTheOtherAtItsFirstCallAfterOneTtl() {
        assertThat(a.postState("OPEN")).isEqualTo(200);
        assertThat(a.state()).isEqualTo("FORCED_OPEN");

        // B serves from its cached state until a call finds it one TTL old; that call's refresh brings the force.
        await(WITHIN_A_TTL, () -> b.call().equals("fallback-open"));
        assertThat(b.state()).isEqualTo("FORCED_OPEN");
        long whileForced = a.wholesalerRequests();
        for (int i = 0; i < 3; i++) {
            assertThat(b.call()).isEqualTo("fallback-open");
            assertThat(a.call()).isEqualTo("fallback-open");
        }
        assertThat(a.wholesalerRequests())
                .as("nothing reaches the wholesaler while forced")
                .isEqualTo(whileForced);

        // Back to automatic through B's endpoint: A follows at its first call after one TTL.
        assertThat(b.postState("AUTO")).isEqualTo(200);
        assertThat(b.state()).isEqualTo("CLOSED");
        await(WITHIN_A_TTL, () -> a.call().equals("live"));
        assertThat(a.state()).isEqualTo("CLOSED");
    }

    /** {@code each} concurrent calls on each instance; answers' X-Served-By. */
    private List<String> burstOnBoth(int each) {
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < each; i++) {
            inFlight.add(HTTP.sendAsync(a.callRequest(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
            inFlight.add(HTTP.sendAsync(b.callRequest(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
        }
        return inFlight.stream()
                .map(CompletableFuture::join)
                .map(TwoBookshopsSharingOneBreaker::servedBy)
                .toList();
    }

    private static String servedBy(HttpResponse<String> response) {
        return response.headers().firstValue("X-Served-By").orElse("<none>");
    }

    static void await(Duration deadline, Supplier<Boolean> condition) {
        pollUntil(deadline, condition, Boolean::booleanValue);
    }

    /** Repeats {@code action} until its result passes {@code done}; fails after the deadline. */
    static <T> T pollUntil(Duration deadline, Supplier<T> action, Predicate<T> done) {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            T result = action.get();
            if (done.test(result)) {
                return result;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("not done within " + deadline + "; last result: " + result);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** One running bookshop, seen over HTTP. */
    record Instance(int port) {

        HttpRequest callRequest() {
            return request("/books/" + BOOK + "/delivery-time").GET().build();
        }

        /** One call through the breaker: who served it ({@code live}, {@code fallback-open}, {@code fallback-failed}). */
        String call() {
            return servedBy(send(callRequest()));
        }

        /** The breaker's local state on this instance, from {@code GET /actuator/breakers/wholesaler}. */
        String state() {
            HttpResponse<String> response =
                    send(request("/actuator/breakers/wholesaler").GET().build());
            assertThat(response.statusCode()).isEqualTo(200);
            return json(response).get("state").asText();
        }

        /** {@code POST /actuator/breakers/wholesaler} as the operator; returns the status code. */
        int postState(String state) {
            String credentials = Base64.getEncoder()
                    .encodeToString((OPERATOR + ":" + OPERATOR_PASSWORD).getBytes(StandardCharsets.UTF_8));
            return send(request("/actuator/breakers/wholesaler")
                            .header("Content-Type", "application/json")
                            .header("Authorization", "Basic " + credentials)
                            .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"" + state + "\"}"))
                            .build())
                    .statusCode();
        }

        /** The instance's {@code breaker.store.timeouts}: store operations a caller stopped waiting for. */
        long storeTimeouts() {
            HttpResponse<String> response = send(
                    request("/actuator/metrics/breaker.store.timeouts").GET().build());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return json(response).at("/measurements/0/value").asLong();
        }

        HttpResponse<String> health() {
            return send(request("/actuator/health").GET().build());
        }

        /** Requests the simulated wholesaler received (only the instance running it). */
        long wholesalerRequests() {
            return json(send(request("/wholesaler").GET().build()))
                    .get("requestsReceived")
                    .asLong();
        }

        void switchWholesaler(String mode) {
            HttpResponse<String> response = send(request("/wholesaler/mode/" + mode)
                    .PUT(HttpRequest.BodyPublishers.noBody())
                    .build());
            assertThat(response.statusCode())
                    .as("switching the wholesaler to %s", mode)
                    .isEqualTo(200);
        }

        private HttpRequest.Builder request(String path) {
            return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(30));
        }
    }

    static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("Not JSON: " + response.body(), e);
        }
    }
}
