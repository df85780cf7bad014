package io.breaker.spring.cloud.gateway;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.breaker.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Spring Cloud Gateways on WebFlux, each a separate JVM process of {@link GatewayFleetInstance}, with
 * one route through the {@code CircuitBreaker} filter to one real HTTP backend, share the route's breaker
 * through one real redis-server ({@code breakers.store.type=redis}), as a user's fleet of gateways would.
 * One caller alternates between the two gateways. After warm-up traffic the backend fails: the fleet
 * trips together (both gateways answer 503 with {@code Retry-After}) after at most
 * {@code minimum-number-of-calls + 1 + L} calls reached the backend (one call on the other gateway that
 * has not yet heard of the trip, and L store reports answered after their caller stopped waiting, from
 * each gateway's {@code breaker.store.timeouts}); while it is open, at most one probe per wait window
 * reaches the backend; once the backend heals, one probe closes the breaker on both gateways.
 *
 * <p>It runs on Boot 3.5 only, in this module's {@code gateway-webflux-fleet} execution (the class path
 * of {@code gateway-webflux} with Redis). It is not tagged {@code boot-line} and its name does not match
 * {@code GatewayWebFlux*Test}: the Boot 4 lines, which run this module's test-jar, leave it out.
 */
class GatewayFleetWebFluxTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final String BREAKER = "backend";
    private static final int GATEWAYS = 2;
    private static final int WINDOW_SIZE = 10;
    private static final int MINIMUM_CALLS = 5;
    private static final Duration WAIT = Duration.ofSeconds(2);
    /** Two probes a full wait apart must not fall in one window because of when the backend read its clock. */
    private static final Duration PROBE_JITTER = Duration.ofMillis(100);
    /** Between two calls of the caller: steady traffic, not a flood, on 2 shared cores. */
    private static final Duration PACE = Duration.ofMillis(20);

    @Test
    void twoGatewaysTripTogetherProbeOncePerWaitAndCloseTogether() throws Exception {
        try (FailingBackend backend = new FailingBackend();
                GatewayFleet fleet = GatewayFleet.start(
                        GATEWAYS, Path.of("target", "gateway-fleet-logs"), arguments(backend.url()))) {
            Caller caller = new Caller(fleet);

            // Warm-up: the fleet's count window fills with successes through both gateways.
            for (int i = 0; i < 2 * WINDOW_SIZE; i++) {
                assertThat(caller.next().statusCode()).as(caller.history()).isEqualTo(200);
            }
            assertThat(backend.arrivals()).isEqualTo(2 * WINDOW_SIZE);

            // The trip: the backend fails until both gateways reject.
            long timeoutsBefore = fleet.storeTimeouts();
            int beforeTrip = backend.arrivals();
            backend.fail();
            boolean[] rejecting = new boolean[GATEWAYS];
            for (int i = 0; !(rejecting[0] && rejecting[1]); i++) {
                assertThat(i)
                        .as("both gateways to reject within 40 calls: " + caller.history())
                        .isLessThan(40);
                HttpResponse<String> response = caller.next();
                if (isRejection(response)) {
                    rejecting[caller.last()] = true;
                } else {
                    assertThat(response.statusCode()).as(caller.history()).isEqualTo(500);
                }
            }
            long tripped = System.nanoTime();
            String tripAnswers = caller.history();
            int tripCalls = backend.arrivals() - beforeTrip;
            long lateReports = fleet.storeTimeouts() - timeoutsBefore;
            long bound = MINIMUM_CALLS + (GATEWAYS - 1) + lateReports;
            for (int i = 0; i < GATEWAYS; i++) {
                assertThat(fleet.state(i, BREAKER)).as("gateway " + i).isEqualTo("OPEN");
            }

            // Open: steady traffic through both gateways for two and a half waits.
            int beforeHold = backend.arrivals();
            long holdUntil = tripped + WAIT.toNanos() * 5 / 2;
            while (System.nanoTime() < holdUntil) {
                HttpResponse<String> response = caller.next();
                assertThat(response.statusCode())
                        .as("a rejection or a failed probe: " + caller.history())
                        .isIn(503, 500);
            }
            List<Long> probes = backend.arrivalsSince(beforeHold);
            int mostInOneWait = mostInAnyInterval(probes, WAIT.minus(PROBE_JITTER));

            // Healed: the next probe closes the breaker, and both gateways let calls through again.
            int beforeHeal = backend.arrivals();
            backend.heal();
            boolean[] open = new boolean[GATEWAYS];
            int rejectedAfterHeal = 0;
            for (int i = 0; !(open[0] && open[1]); i++) {
                assertThat(i)
                        .as("both gateways to answer 200 within 500 calls: " + caller.history())
                        .isLessThan(500);
                HttpResponse<String> response = caller.next();
                if (response.statusCode() == 200) {
                    open[caller.last()] = true;
                } else {
                    assertThat(response.statusCode()).as(caller.history()).isEqualTo(503);
                    rejectedAfterHeal++;
                }
            }
            List<Long> afterHeal = backend.arrivalsSince(beforeHeal);

            System.out.printf(
                    "[gateway-fleet] trip: %d calls reached the backend (bound %d = %d + %d + %d late reports);"
                            + " open for %.1f s: %d probes %s, at most %d in one wait;"
                            + " healed: %d rejections before both answered 200, %d calls reached the backend%n",
                    tripCalls,
                    bound,
                    MINIMUM_CALLS,
                    GATEWAYS - 1,
                    lateReports,
                    WAIT.toMillis() * 2.5 / 1000,
                    probes.size(),
                    probes.stream()
                            .map(nanos -> String.format("%.2f s", (nanos - tripped) / 1e9))
                            .toList(),
                    mostInOneWait,
                    rejectedAfterHeal,
                    afterHeal.size());

            assertThat(tripCalls)
                    .as("calls that reached the failing backend before both gateways rejected: "
                            + "at most minimum-number-of-calls + 1 + late store reports " + tripAnswers)
                    .isBetween(MINIMUM_CALLS, (int) bound);
            assertThat(probes)
                    .as("probes while open: the wait ended at least once")
                    .isNotEmpty();
            assertThat(mostInOneWait).as("probes in one wait window").isEqualTo(1);
            for (int i = 0; i < GATEWAYS; i++) {
                assertThat(fleet.state(i, BREAKER)).as("gateway " + i).isEqualTo("CLOSED");
            }
        }
    }

    /** A rejection of the open breaker: 503 with the whole seconds until the next probe (at least 1). */
    private static boolean isRejection(HttpResponse<String> response) {
        Optional<String> retryAfter = response.headers().firstValue("Retry-After");
        return response.statusCode() == 503 && retryAfter.isPresent() && Integer.parseInt(retryAfter.get()) >= 1;
    }

    /** The most arrivals in any interval of {@code length}. */
    private static int mostInAnyInterval(List<Long> arrivals, Duration length) {
        int most = 0;
        int first = 0;
        for (int last = 0; last < arrivals.size(); last++) {
            while (arrivals.get(last) - arrivals.get(first) >= length.toNanos()) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }

    /** The gateways' command line: what a user's application.yml would say. */
    private static List<String> arguments(String backendUrl) {
        String route = "--spring.cloud.gateway.server.webflux.routes[0].";
        String breaker = "--breakers.instances." + BREAKER + ".";
        return List.of(
                "--spring.main.web-application-type=reactive",
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redis.port(),
                "--breakers.store.type=redis",
                "--management.health.redis.enabled=false",
                "--management.endpoints.web.exposure.include=health,breakers,metrics",
                "--logging.level.io.breaker.redis.RedisStateStore=DEBUG",
                route + "id=backend",
                route + "uri=" + backendUrl,
                route + "predicates[0]=Path=/backend/**",
                route + "filters[0].name=CircuitBreaker",
                route + "filters[0].args.name=" + BREAKER,
                route + "filters[0].args.statusCodes[0]=500",
                breaker + "sliding-window-type=COUNT_BASED",
                breaker + "sliding-window-size=" + WINDOW_SIZE,
                breaker + "minimum-number-of-calls=" + MINIMUM_CALLS,
                breaker + "failure-rate-threshold=50",
                breaker + "permitted-calls-in-half-open-state=1",
                breaker + "wait-duration-in-open-state=" + WAIT.toMillis() + "ms");
    }

    /** One caller, alternating between the gateways, one call at a time; it remembers what each answered. */
    private static final class Caller {

        private final GatewayFleet fleet;
        private final List<String> answers = new ArrayList<>();
        private int calls;
        private int last;

        Caller(GatewayFleet fleet) {
            this.fleet = fleet;
        }

        HttpResponse<String> next() throws IOException, InterruptedException {
            Thread.sleep(PACE.toMillis());
            last = calls++ % fleet.size();
            HttpResponse<String> response = fleet.get(last, "/backend/items");
            answers.add("g" + last + ":" + response.statusCode());
            return response;
        }

        /** The gateway of the last call. */
        int last() {
            return last;
        }

        /** The last answers, for a failure's message. */
        String history() {
            return "(last answers: " + answers.subList(Math.max(0, answers.size() - 30), answers.size()) + ")";
        }
    }

    /** The backend: 200 while healthy, 500 while failing; it records when each request arrived. */
    private static final class FailingBackend implements AutoCloseable {

        private final HttpServer server;
        private final ExecutorService executor = Executors.newFixedThreadPool(4);
        private final List<Long> arrivals = new ArrayList<>();
        private volatile boolean failing;

        FailingBackend() {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.setExecutor(executor);
            server.createContext("/", this::answer);
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        void fail() {
            failing = true;
        }

        void heal() {
            failing = false;
        }

        synchronized int arrivals() {
            return arrivals.size();
        }

        /** When each request from the {@code from}-th on arrived ({@link System#nanoTime()}), oldest first. */
        synchronized List<Long> arrivalsSince(int from) {
            return List.copyOf(arrivals.subList(from, arrivals.size()));
        }

        private void answer(HttpExchange exchange) throws IOException {
            boolean failed = failing;
            synchronized (this) {
                arrivals.add(System.nanoTime());
            }
            byte[] body = (failed ? "down" : "ok").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(failed ? 500 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }

        @Override
        public void close() {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
