package io.breaker.spring.aop;

import com.sun.net.httpserver.HttpServer;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitOpenException;
import io.breaker.State;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.test.BootLine;
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
import org.springframework.web.client.RestClient;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code record-result.http-status} as an application uses it: a client that hands back every HTTP
 * answer as a {@code ResponseEntity} instead of throwing, behind {@code @CircuitProtected}, calling a
 * real HTTP server. Answers with a listed status trip the breaker while the caller still gets each
 * of them as the server sent it; other statuses are successes.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        classes = RecordResultHttpTest.App.class,
        properties = {
            "breakers.defaults.sliding-window-size=4",
            "breakers.defaults.minimum-number-of-calls=4",
            "breakers.defaults.failure-rate-threshold=50",
            "breakers.defaults.wait-duration-in-open-state=1h",
            "breakers.defaults.record-result.http-status=500-599, 429",
            "breakers.instances.pages.record-result.predicate=maintenancePages"
        })
@Tag(BootLine.TAG)
class RecordResultHttpTest {

    private static final String BODY = "the wholesaler is down for maintenance";
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

    @Test
    void serviceUnavailableAnswersTripTheBreakerAndReachTheCallerUnchangedUntilThen() {
        String path = "/stock/unavailable";
        BACKEND.answer(path, 503);
        List<ResponseEntity<String>> answers = new ArrayList<>();

        for (int i = 0; i < 4; i++) {
            answers.add(wholesaler.stock(path));
        }

        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.getStatusCode().value()).isEqualTo(503);
            assertThat(answer.getBody()).isEqualTo(BODY);
            assertThat(answer.getHeaders().getFirst("X-Backend")).isEqualTo("wholesaler");
        });
        assertThat(registry.breaker("stock").getState()).isEqualTo(State.OPEN);
        assertThat(registry.breaker("stock").getLastFailureType()).isEqualTo(ResponseEntity.class.getName());

        assertThatThrownBy(() -> wholesaler.stock(path)).isInstanceOf(CircuitOpenException.class);
        assertThat(BACKEND.requests(path))
                .as("the rejected call did not reach the server")
                .isEqualTo(4);
    }

    @Test
    void notFoundAnswersNeverCountWhileServerErrorsOnTheSameBreakerDo() {
        String path = "/stock/no-such-book";
        BACKEND.answer(path, 404);

        for (int i = 0; i < 10; i++) {
            assertThat(wholesaler.catalogue(path).getStatusCode().value()).isEqualTo(404);
        }

        assertThat(registry.breaker("catalogue").getState()).isEqualTo(State.CLOSED);
        assertThat(registry.breaker("catalogue").getMetrics().failedCalls()).isZero();

        BACKEND.answer(path, 500);
        assertThat(wholesaler.catalogue(path).getStatusCode().value()).isEqualTo(500);
        assertThat(registry.breaker("catalogue").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void aMonoOfServiceUnavailableAnswersTripsTheBreakerAndStillEmitsThem() {
        String path = "/quotes/unavailable";
        BACKEND.answer(path, 429);

        for (int i = 0; i < 4; i++) {
            ResponseEntity<String> answer = wholesaler.quote(path).block();
            assertThat(answer.getStatusCode().value()).isEqualTo(429);
            assertThat(answer.getBody()).isEqualTo(BODY);
        }

        assertThat(registry.breaker("quotes").getState()).isEqualTo(State.OPEN);
        assertThatThrownBy(() -> wholesaler.quote(path).block()).isInstanceOf(CircuitOpenException.class);
        assertThat(BACKEND.requests(path)).isEqualTo(4);
    }

    @Test
    void aBreakersOwnPredicateReplacesTheDefaultStatusRule() {
        String path = "/pages/maintenance";
        BACKEND.answer(path, 503);
        wholesaler.page(path);
        wholesaler.page(path);
        assertThat(registry.breaker("pages").getMetrics().failedCalls())
                .as("503 counts by the default rule, which this breaker replaced")
                .isZero();

        BACKEND.answer(path, 200); // a maintenance page served with 200 OK
        for (int i = 0; i < 2; i++) {
            assertThat(wholesaler.page(path).getBody()).isEqualTo(BODY);
        }

        assertThat(registry.breaker("pages").getMetrics().failedCalls()).isEqualTo(2);
        assertThat(registry.breaker("pages").getState()).isEqualTo(State.OPEN);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        /** Some servers answer an outage with a maintenance page and 200 OK. */
        @Bean
        ResultPredicate maintenancePages() {
            return new ResultPredicate() {
                @Override
                public boolean isFailure(Object result) {
                    ResponseEntity<?> entity = (ResponseEntity<?>) result;
                    return entity.getStatusCode().value() == 200
                            && String.valueOf(entity.getBody()).contains("maintenance");
                }

                @Override
                public Class<?> resultType() {
                    return ResponseEntity.class;
                }
            };
        }

        @Bean
        Wholesaler wholesaler() {
            // as applications configure a client that returns every answer: no status throws
            return new Wholesaler(RestClient.builder()
                    .baseUrl("http://localhost:" + BACKEND.port())
                    .defaultStatusHandler(status -> true, (request, response) -> {})
                    .build());
        }
    }

    static class Wholesaler {

        private final RestClient client;

        Wholesaler(RestClient client) {
            this.client = client;
        }

        @CircuitProtected(name = "stock")
        public ResponseEntity<String> stock(String path) {
            return client.get().uri(path).retrieve().toEntity(String.class);
        }

        @CircuitProtected(name = "catalogue")
        public ResponseEntity<String> catalogue(String path) {
            return client.get().uri(path).retrieve().toEntity(String.class);
        }

        @CircuitProtected(name = "pages")
        public ResponseEntity<String> page(String path) {
            return client.get().uri(path).retrieve().toEntity(String.class);
        }

        @CircuitProtected(name = "quotes")
        public Mono<ResponseEntity<String>> quote(String path) {
            return Mono.fromCallable(() -> client.get().uri(path).retrieve().toEntity(String.class));
        }
    }

    /** An HTTP server on a free port that answers each path with the status set for it. */
    static final class Backend {

        private final java.util.Map<String, Integer> statuses = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Map<String, AtomicInteger> requests = new java.util.concurrent.ConcurrentHashMap<>();
        private HttpServer server;

        void start() throws IOException {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
            server.createContext("/", exchange -> {
                String path = exchange.getRequestURI().getPath();
                requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/plain");
                exchange.getResponseHeaders().add("X-Backend", "wholesaler");
                exchange.sendResponseHeaders(statuses.getOrDefault(path, 200), body.length);
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

        void answer(String path, int status) {
            statuses.put(path, status);
        }

        int requests(String path) {
            AtomicInteger count = requests.get(path);
            return count == null ? 0 : count.get();
        }
    }
}
