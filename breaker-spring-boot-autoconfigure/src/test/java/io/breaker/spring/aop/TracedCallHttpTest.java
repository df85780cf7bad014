package io.breaker.spring.aop;

import io.breaker.spring.CircuitProtected;
import io.breaker.spring.test.BootLine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application traced with Micrometer Tracing (an in-memory tracer behind Micrometer's tracing
 * handler), called over real HTTP: the span of each request contains the span of the breaker's call,
 * with its keys as tags, the fallback's span inside that one, and the trip as an event on the call
 * that caused it. The breaker's own meters are there; no timer is made of the observations.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = TracedCallHttpTest.App.class,
        properties = {
            "spring.main.web-application-type=servlet",
            "breakers.instances.wholesaler.sliding-window-size=2",
            "breakers.instances.wholesaler.minimum-number-of-calls=2",
            "breakers.instances.wholesaler.wait-duration-in-open-state=1h"
        })
@Tag(BootLine.TAG)
class TracedCallHttpTest {

    @LocalServerPort
    private int port;

    @Autowired
    private SimpleTracer tracer;

    @Autowired
    private MeterRegistry meters;

    @Test
    void eachRequestsSpanContainsTheBreakersSpanAndTheTripIsAnEvent() {
        RestClient client = RestClient.create("http://localhost:" + port);

        for (int i = 0; i < 3; i++) {
            assertThat(client.get().uri("/price").retrieve().body(String.class)).isEqualTo("cached");
        }

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(named("http get /price")).hasSize(3));
        List<SimpleSpan> requests = named("http get /price");
        List<SimpleSpan> calls = named("breaker wholesaler");
        List<SimpleSpan> fallbacks = named("breaker wholesaler fallback");
        assertThat(calls).hasSize(3);
        assertThat(fallbacks).hasSize(3);
        for (int i = 0; i < 3; i++) {
            SimpleSpan request = requests.get(i);
            SimpleSpan call = calls.get(i);
            assertThat(call.getParentId()).isEqualTo(request.getSpanId());
            assertThat(call.getTraceId()).isEqualTo(request.getTraceId());
            assertThat(call.getTags()).containsEntry("circuitbreaker.name", "wholesaler");
            assertThat(fallbacks.get(i).getParentId()).isEqualTo(call.getSpanId());
        }
        assertThat(calls)
                .extracting(call -> call.getTags().get("breaker.outcome") + "@"
                        + call.getTags().get("circuitbreaker.state"))
                .containsExactly("failure@closed", "failure@closed", "rejected@open");
        assertThat(calls.get(0).getEvents()).isEmpty();
        assertThat(calls.get(1).getEvents())
                .extracting(event -> event.getValue())
                .containsExactly("breaker wholesaler CLOSED -> OPEN");

        assertThat(meters.find("breaker.calls").tag("name", "wholesaler").timers())
                .isNotEmpty();
        // Micrometer's meter handler is at work (the request's timer), yet made no timer of the breaker's call
        assertThat(meters.find("http.server.requests").timers()).isNotEmpty();
        assertThat(meters.find("breaker.call").meters()).isEmpty();
        assertThat(meters.find("breaker.call.breaker.transition").meters()).isEmpty();
    }

    /** The finished spans named {@code name}, in the order they started. */
    private List<SimpleSpan> named(String name) {
        return tracer.getSpans().stream()
                .filter(span ->
                        name.equals(span.getName()) && span.getEndTimestamp().toEpochMilli() > 0)
                .sorted((a, b) -> a.getStartTimestamp().compareTo(b.getStartTimestamp()))
                .toList();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        SimpleTracer simpleTracer() {
            return new SimpleTracer();
        }

        /** Spans from observations, registered with the observation registry as Spring Boot does any handler. */
        @Bean
        DefaultTracingObservationHandler tracingObservationHandler(SimpleTracer tracer) {
            return new DefaultTracingObservationHandler(tracer);
        }

        @Bean
        Wholesaler wholesaler() {
            return new Wholesaler();
        }

        @Bean
        PriceController priceController(Wholesaler wholesaler) {
            return new PriceController(wholesaler);
        }
    }

    static class Wholesaler {

        @CircuitProtected(name = "wholesaler", fallbackMethod = "cached")
        public String price() {
            throw new IllegalStateException("the wholesaler is down");
        }

        String cached(Throwable failure) {
            return "cached";
        }
    }

    @RestController
    static class PriceController {

        private final Wholesaler wholesaler;

        PriceController(Wholesaler wholesaler) {
            this.wholesaler = wholesaler;
        }

        @GetMapping("/price")
        String price() {
            return wholesaler.price();
        }
    }
}
