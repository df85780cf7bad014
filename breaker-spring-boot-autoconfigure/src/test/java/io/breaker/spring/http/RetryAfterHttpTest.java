package io.breaker.spring.http;

import com.sun.net.httpserver.HttpServer;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.State;
import io.breaker.WaitReason;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.actuate.BreakerDescriptor;
import io.breaker.spring.actuate.BreakerOperations;
import io.breaker.spring.actuate.BreakerTransitionHistory;
import io.breaker.spring.test.BootLine;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A dependency that answers 503 with a {@code Retry-After}, called as applications call it: a
 * {@code @CircuitProtected} method, a {@code RestClient}, a real HTTP server. The breaker that trips
 * on those answers lets its next probe through when the server asked, not after its configured wait
 * (30 s here), within its {@code max-wait-duration-in-open-state}. The clocks stand still: the trip
 * happens at {@link #NOW}, so the next probe's time is exact.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        classes = RetryAfterHttpTest.App.class,
        properties = {
            "breakers.defaults.sliding-window-size=4",
            "breakers.defaults.minimum-number-of-calls=4",
            "breakers.defaults.failure-rate-threshold=50",
            "breakers.defaults.wait-duration-in-open-state=30s",
            "breakers.instances.capped.max-wait-duration-in-open-state=1m",
            "breakers.instances.entities.record-result.http-status=503",
            "breakers.instances.backing-off.wait-multiplier=2",
            "breakers.instances.backing-off.max-wait-duration-in-open-state=100s"
        })
@Tag(BootLine.TAG)
class RetryAfterHttpTest {

    private static final Instant NOW = Instant.parse("2026-12-02T05:00:00Z");
    private static final AtomicLong NANOS = new AtomicLong(1_000_000_000L);
    private static final Backend BACKEND = new Backend();

    @Autowired
    private Wholesaler wholesaler;

    @Autowired
    private BreakerRegistry registry;

    @BeforeAll
    static void startBackend() throws IOException {
        BACKEND.start();
    }

    @AfterAll
    static void stopBackend() {
        BACKEND.stop();
    }

    /** Four calls through the proxy, each answered 503: the breaker trips on the fourth. */
    private void tripOn(String breaker, ThrowingCallable call) {
        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(call).isInstanceOf(HttpServerErrorException.class);
        }
        assertThat(registry.breaker(breaker).getState()).isEqualTo(State.OPEN);
    }

    /** The breaker as the {@code breakers} endpoint describes it, with the application's wall clock. */
    private BreakerDescriptor described(String breaker) {
        BreakerOperations operations = new BreakerOperations(registry, BreakerTransitionHistory.bind(registry, 10));
        return operations.describe(breaker).orElseThrow();
    }

    private Instant nextProbeAt(String breaker) {
        return described(breaker).nextProbeAt();
    }

    @Test
    void retryAfterInSecondsKeepsTheBreakerOpenThatLong() {
        BACKEND.answer("/stock/seconds", "120");

        tripOn("seconds", () -> wholesaler.seconds("/stock/seconds"));

        CircuitBreaker breaker = registry.breaker("seconds");
        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(120).toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);
        assertThat(nextProbeAt("seconds")).isEqualTo(NOW.plusSeconds(120));
        assertThat(described("seconds").waitReason()).isEqualTo(WaitReason.RETRY_AFTER);
    }

    @Test
    void retryAfterAsAnHttpDateCountsFromTheWallClock() {
        String date =
                DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(300).atOffset(ZoneOffset.UTC));
        BACKEND.answer("/stock/date", date);

        tripOn("date", () -> wholesaler.date("/stock/date"));

        assertThat(registry.breaker("date").getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(300).toNanos());
        assertThat(nextProbeAt("date")).isEqualTo(NOW.plusSeconds(300));
    }

    @Test
    void theBreakersMaxWaitCapsTheRetryAfter() {
        BACKEND.answer("/stock/capped", "120");

        tripOn("capped", () -> wholesaler.capped("/stock/capped"));

        assertThat(registry.breaker("capped").getRemainingWaitNanos())
                .isEqualTo(Duration.ofMinutes(1).toNanos());
        assertThat(nextProbeAt("capped")).isEqualTo(NOW.plusSeconds(60));
    }

    @Test
    void aMalformedRetryAfterLeavesTheConfiguredWait() {
        BACKEND.answer("/stock/malformed", "in a little while");

        tripOn("malformed", () -> wholesaler.malformed("/stock/malformed"));

        assertThat(registry.breaker("malformed").getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(registry.breaker("malformed").getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
        assertThat(described("malformed").waitReason()).isEqualTo(WaitReason.CONFIGURED);
    }

    @Test
    void aResponseEntityRecordedAsAFailureCarriesItsRetryAfter() {
        BACKEND.answer("/stock/entity", "90");

        for (int i = 0; i < 4; i++) {
            assertThat(wholesaler.entity("/stock/entity").getStatusCode().value())
                    .isEqualTo(503);
        }

        assertThat(registry.breaker("entities").getState()).isEqualTo(State.OPEN);
        assertThat(registry.breaker("entities").getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(90).toNanos());
        assertThat(nextProbeAt("entities")).isEqualTo(NOW.plusSeconds(90));
    }

    @Test
    void failedProbesGrowTheWaitAndTheEndpointSaysBackoff() {
        tripOn("backing-off", () -> wholesaler.backingOff("/stock/no-hint"));
        CircuitBreaker breaker = registry.breaker("backing-off");
        assertThat(described("backing-off").config().waitMultiplier()).isEqualTo(2f);
        assertThat(described("backing-off").config().maxWaitDurationInOpenState())
                .isEqualTo(Duration.ofSeconds(100));

        long[] expectedSeconds = {60, 100, 100}; // 30 s * 2, * 4 capped at 100 s, and capped again
        for (long seconds : expectedSeconds) {
            NANOS.addAndGet(breaker.getRemainingWaitNanos());
            assertThatThrownBy(() -> wholesaler.backingOff("/stock/no-hint"))
                    .isInstanceOf(HttpServerErrorException.class); // the probe, answered 503 again
            assertThat(breaker.getState()).isEqualTo(State.OPEN);
            assertThat(breaker.getRemainingWaitNanos())
                    .isEqualTo(Duration.ofSeconds(seconds).toNanos());
            assertThat(nextProbeAt("backing-off")).isEqualTo(NOW.plusSeconds(seconds));
            assertThat(described("backing-off").waitReason()).isEqualTo(WaitReason.BACKOFF);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        NanoClock testClock() {
            return NANOS::get;
        }

        @Bean
        Clock wallClock() {
            return Clock.fixed(NOW, ZoneOffset.UTC);
        }

        @Bean
        Wholesaler wholesaler() {
            String base = "http://localhost:" + BACKEND.port();
            return new Wholesaler(
                    RestClient.builder().baseUrl(base).build(),
                    RestClient.builder()
                            .baseUrl(base)
                            .defaultStatusHandler(status -> true, (request, response) -> {})
                            .build());
        }
    }

    static class Wholesaler {

        private final RestClient throwing;
        private final RestClient answering;

        Wholesaler(RestClient throwing, RestClient answering) {
            this.throwing = throwing;
            this.answering = answering;
        }

        @CircuitProtected(name = "seconds")
        public String seconds(String path) {
            return throwing.get().uri(path).retrieve().body(String.class);
        }

        @CircuitProtected(name = "date")
        public String date(String path) {
            return throwing.get().uri(path).retrieve().body(String.class);
        }

        @CircuitProtected(name = "capped")
        public String capped(String path) {
            return throwing.get().uri(path).retrieve().body(String.class);
        }

        @CircuitProtected(name = "malformed")
        public String malformed(String path) {
            return throwing.get().uri(path).retrieve().body(String.class);
        }

        @CircuitProtected(name = "backing-off")
        public String backingOff(String path) {
            return throwing.get().uri(path).retrieve().body(String.class);
        }

        @CircuitProtected(name = "entities")
        public ResponseEntity<String> entity(String path) {
            return answering.get().uri(path).retrieve().toEntity(String.class);
        }
    }

    /** An HTTP server on a free port that answers each path with 503 and the Retry-After set for it. */
    static final class Backend {

        private final Map<String, String> retryAfter = new ConcurrentHashMap<>();
        private HttpServer server;

        void start() throws IOException {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
            server.createContext("/", exchange -> {
                String value = retryAfter.get(exchange.getRequestURI().getPath());
                if (value != null) {
                    exchange.getResponseHeaders().add("Retry-After", value);
                }
                byte[] body = "busy".getBytes();
                exchange.sendResponseHeaders(503, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        }

        void stop() {
            server.stop(0);
        }

        int port() {
            return server.getAddress().getPort();
        }

        void answer(String path, String value) {
            retryAfter.put(path, value);
        }
    }
}
