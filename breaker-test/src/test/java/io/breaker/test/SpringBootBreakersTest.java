package io.breaker.test;

import io.breaker.CircuitBreaker;
import io.breaker.spring.events.BreakerTransitionEvent;
import io.breaker.test.app.Shop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

import static io.breaker.State.CLOSED;
import static io.breaker.State.HALF_OPEN;
import static io.breaker.State.OPEN;
import static io.breaker.TransitionCause.FAILURE_RATE;
import static io.breaker.TransitionCause.PROBES_SUCCEEDED;
import static io.breaker.TransitionCause.SLOW_CALL_RATE;
import static io.breaker.TransitionCause.WAIT_ELAPSED;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;
import static io.breaker.test.assertj.BreakerAssertions.assertThatTransitions;
import static io.breaker.test.assertj.BreakerAssertions.transition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The kit in a whole application, over real HTTP; every test shares one context. */
@SpringBootTest(classes = Shop.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureBreakers
@RecordApplicationEvents
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SpringBootBreakersTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    Shop.Supplier supplier;

    @Autowired
    BreakerClock clock;

    @Autowired
    ApplicationEvents events;

    @AfterEach
    void healthySupplier() {
        supplier.failing.set(false);
        supplier.takes.set(Duration.ZERO);
    }

    @Test
    @Order(1)
    void tripsOverHttpThenOneProbeAfterTheVirtualWaitClosesIt() {
        supplier.failing.set(true);
        for (int i = 0; i < 5; i++) {
            assertThat(get("/stock/book")).isEqualTo("-2"); // failed, answered by the fallback
        }
        assertThatBreaker("supplier").isOpen().hasFailureRate(100.0).hasTransitioned(CLOSED, OPEN);

        int calls = supplier.calls.get();
        assertThat(get("/stock/book")).isEqualTo("-1"); // rejected: the supplier is not asked
        clock.advance(Duration.ofSeconds(29));
        assertThat(get("/stock/book")).isEqualTo("-1");
        assertThatBreaker("supplier").rejected(2);
        assertThat(supplier.calls).hasValue(calls);

        supplier.failing.set(false);
        clock.advance(Duration.ofSeconds(1));
        assertThat(get("/stock/book")).isEqualTo("4"); // the probe
        assertThatBreaker("supplier").isClosed();
        assertThatTransitions()
                .containsExactly(
                        transition("supplier", CLOSED, OPEN, FAILURE_RATE),
                        transition("supplier", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("supplier", HALF_OPEN, CLOSED, PROBES_SUCCEEDED));

        // Left behind for the next test, which must not see any of it.
        Breakers.trip("supplier");
        Breakers.force("catalogue", OPEN);
    }

    @Test
    @Order(2)
    void theNextTestStartsFromFreshClosedBreakers() {
        for (CircuitBreaker breaker : Breakers.registry().all()) {
            assertThatBreaker(breaker.getName()).isClosed().rejected(0).hasFailedCalls(0);
        }
        assertThatTransitions().isEmpty();
        assertThat(get("/actuator/breakers/supplier")).contains("\"transitions\":[]");
        assertThat(get("/stock/book")).isEqualTo("4");
    }

    @Test
    void callsAreTimedOnTheVirtualClockSoAStubThatAdvancesItIsASlowDependency() {
        supplier.takes.set(Duration.ofMillis(1999));
        for (int i = 0; i < 5; i++) {
            assertThat(get("/stock/book")).isEqualTo("4");
        }
        assertThatBreaker("supplier").isClosed().hasSlowCallRate(0.0);

        supplier.takes.set(Duration.ofSeconds(2));
        for (int i = 0; i < 10; i++) {
            assertThat(get("/stock/book")).isEqualTo("4");
        }
        assertThatBreaker("supplier").isOpen().hasSlowCallRate(100.0);
        assertThatTransitions().containsExactly(transition("supplier", CLOSED, OPEN, SLOW_CALL_RATE));
    }

    @Test
    @ForceBreaker(name = "supplier", state = OPEN)
    void aForcedOpenBreakerAnswersFromTheFallbackWithoutAskingTheSupplier() {
        int calls = supplier.calls.get();
        assertThat(get("/stock/book")).isEqualTo("-1");
        assertThat(supplier.calls).hasValue(calls);
        assertThatBreaker("supplier").isForcedOpen().rejected(1);
    }

    @Test
    void aTripIsARealOneWithItsEventAndTheEndpointShowsTheVirtualTimes() {
        clock.advance(Duration.ofMinutes(5));
        Breakers.trip("supplier");

        assertThatTransitions().containsExactly(transition("supplier", CLOSED, OPEN, FAILURE_RATE));
        assertThat(events.stream(BreakerTransitionEvent.class)).hasSize(1);
        String descriptor = get("/actuator/breakers/supplier");
        assertThat(descriptor)
                .contains("\"openedAt\":\"" + clock.instant().truncatedTo(ChronoUnit.MILLIS) + "\"")
                .contains("\"nextProbeAt\":\"" + clock.instant().plusSeconds(30).truncatedTo(ChronoUnit.MILLIS) + "\"")
                .contains("io.breaker.test.Breakers.trip");
    }

    @Test
    void aBreakerThatDoesNotExistIsNamedWithThoseThatDo() throws IOException {
        assertThatThrownBy(() -> Breakers.trip("suplier"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("No breaker named 'suplier'; the breakers are [catalogue, supplier]")
                .satisfies(failure -> assertThat(readme())
                        .as("the README shows this failure as it is")
                        .contains(failure.toString()));
    }

    /** The README at the repository's root, above the working directory (each line's module runs this). */
    private static String readme() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve("README.md")) || !Files.exists(dir.resolve("breaker-core"))) {
            dir = dir.getParent();
            assertThat(dir).as("the repository's root").isNotNull();
        }
        return Files.readString(dir.resolve("README.md"));
    }

    private String get(String path) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode())
                    .as("GET %s: %s", path, response.body())
                    .isEqualTo(200);
            return response.body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
