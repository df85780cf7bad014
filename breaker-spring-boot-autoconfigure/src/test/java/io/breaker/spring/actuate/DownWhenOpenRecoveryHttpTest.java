package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.NanoClock;
import io.breaker.State;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code breakers.health.down-when-open} over HTTP, the whole loop: a readiness probe that sees DOWN
 * takes the instance out of the load balancer, so no call arrives; without a timer the breaker stays
 * OPEN. Once its wait has elapsed it must report UP, so that traffic comes back and a call can probe.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = DownWhenOpenRecoveryHttpTest.App.class,
        properties = {
            "management.endpoints.web.exposure.include=health",
            "management.endpoint.health.show-details=always",
            "breakers.health.down-when-open=wholesaler",
            "breakers.instances.wholesaler.sliding-window-size=4",
            "breakers.instances.wholesaler.minimum-number-of-calls=4",
            "breakers.instances.wholesaler.wait-duration-in-open-state=30s"
        })
@Tag(BootLine.TAG)
class DownWhenOpenRecoveryHttpTest {

    private static final AtomicLong NOW = new AtomicLong(1_000_000_000L);

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @Autowired
    private Wholesaler wholesaler;

    @Test
    void downWhileWaitingThenUpOnceAProbeIsDueThenClosedByTheProbe() throws Exception {
        wholesaler.setFailing(true);
        for (int i = 0; i < 4; i++) {
            wholesaler.deliveryDays();
        }
        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(State.OPEN);
        assertThat(health()).extracting(HttpResponse::statusCode).isEqualTo(503);

        NOW.addAndGet(Duration.ofSeconds(29).toNanos()); // no traffic: the instance is out of rotation
        assertThat(health().statusCode()).as("still waiting").isEqualTo(503);

        NOW.addAndGet(Duration.ofSeconds(1).toNanos());
        HttpResponse<String> ready = health();
        assertThat(ready.statusCode()).as("the wait elapsed: ready to probe").isEqualTo(200);
        assertThat(ready.body()).contains("\"state\":\"OPEN\"", "\"readyToProbe\":true");
        assertThat(registry.breaker("wholesaler").getState())
                .as("health changes nothing")
                .isEqualTo(State.OPEN);

        wholesaler.setFailing(false);
        assertThat(wholesaler.deliveryDays()).isEqualTo(3); // traffic is back: this call is the probe

        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(State.CLOSED);
        assertThat(health().statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> health() throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static class Wholesaler {

        private volatile boolean failing;

        /** Public, so that the proxy passes it on to the target. */
        public void setFailing(boolean failing) {
            this.failing = failing;
        }

        @CircuitProtected(name = "wholesaler", fallbackMethod = "unknown")
        public int deliveryDays() {
            if (failing) {
                throw new IllegalStateException("503 from the wholesaler");
            }
            return 3;
        }

        int unknown(Throwable failure) {
            return -1;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        NanoClock testClock() {
            return NOW::get;
        }

        @Bean
        Wholesaler wholesaler() {
            return new Wholesaler();
        }
    }
}
