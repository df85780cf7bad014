package io.breaker.spring.cloud.gateway;

import io.breaker.CircuitOpenException;
import io.breaker.spring.cloud.TestClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Cloud Gateway on WebFlux with routes in properties through the {@code CircuitBreaker} filter,
 * as users write them, in front of a real HTTP backend on a free port: a backend status listed under
 * {@code statusCodes} counts as a failure, the tripped route answers 503 with {@code Retry-After} (whole
 * seconds until the probe, rounded up) without calling the backend, a {@code fallbackUri} answers
 * failures and rejections (and a fallback route with Gateway's {@code FallbackHeaders} filter passes
 * the failure on in headers, without resilience4j), and forcing the breaker open over the actuator stops the traffic.
 */
@Tag("boot-line")
@SpringBootTest(
        classes = GatewayWebFluxApplicationTest.Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.main.web-application-type=reactive",
            "management.endpoints.web.exposure.include=breakers",
            "breakers.defaults.sliding-window-size=2",
            "breakers.defaults.minimum-number-of-calls=2",
            "breakers.defaults.wait-duration-in-open-state=30s",
            "breakers.instances.inventory.permitted-calls-in-half-open-state=1",
            "breakers.instances.catalogue.failure-rate-threshold=50",
            "breakers.instances.orders.failure-rate-threshold=50",
            "spring.cloud.gateway.server.webflux.routes[0].id=inventory",
            "spring.cloud.gateway.server.webflux.routes[0].uri=${backend.url}",
            "spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/inventory/**",
            "spring.cloud.gateway.server.webflux.routes[0].filters[0].name=CircuitBreaker",
            "spring.cloud.gateway.server.webflux.routes[0].filters[0].args.name=inventory",
            "spring.cloud.gateway.server.webflux.routes[0].filters[0].args.statusCodes[0]=500",
            "spring.cloud.gateway.server.webflux.routes[0].filters[0].args.statusCodes[1]=502",
            "spring.cloud.gateway.server.webflux.routes[1].id=catalogue",
            "spring.cloud.gateway.server.webflux.routes[1].uri=${backend.url}",
            "spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/catalogue/**",
            "spring.cloud.gateway.server.webflux.routes[1].filters[0].name=CircuitBreaker",
            "spring.cloud.gateway.server.webflux.routes[1].filters[0].args.name=catalogue",
            "spring.cloud.gateway.server.webflux.routes[1].filters[0].args.fallbackUri=forward:/fallback",
            "spring.cloud.gateway.server.webflux.routes[1].filters[0].args.statusCodes[0]=INTERNAL_SERVER_ERROR",
            "spring.cloud.gateway.server.webflux.routes[2].id=orders",
            "spring.cloud.gateway.server.webflux.routes[2].uri=${backend.url}",
            "spring.cloud.gateway.server.webflux.routes[2].predicates[0]=Path=/orders/**",
            "spring.cloud.gateway.server.webflux.routes[2].filters[0]=CircuitBreaker=orders",
            "spring.cloud.gateway.server.webflux.routes[3].id=payments",
            "spring.cloud.gateway.server.webflux.routes[3].uri=${backend.url}",
            "spring.cloud.gateway.server.webflux.routes[3].predicates[0]=Path=/payments/**",
            "spring.cloud.gateway.server.webflux.routes[3].filters[0]=CircuitBreaker=payments",
            "spring.cloud.gateway.server.webflux.routes[3].metadata.response-timeout=300",
            "breakers.instances.payments.failure-rate-threshold=50",
            "spring.cloud.gateway.server.webflux.routes[4].id=shelves",
            "spring.cloud.gateway.server.webflux.routes[4].uri=${backend.url}",
            "spring.cloud.gateway.server.webflux.routes[4].predicates[0]=Path=/shelves/**",
            "spring.cloud.gateway.server.webflux.routes[4].filters[0].name=CircuitBreaker",
            "spring.cloud.gateway.server.webflux.routes[4].filters[0].args.name=shelves",
            "spring.cloud.gateway.server.webflux.routes[4].filters[0].args.fallbackUri=forward:/shelves-fallback",
            "spring.cloud.gateway.server.webflux.routes[4].filters[0].args.statusCodes[0]=500",
            "spring.cloud.gateway.server.webflux.routes[5].id=shelves-fallback",
            "spring.cloud.gateway.server.webflux.routes[5].uri=${backend.url}",
            "spring.cloud.gateway.server.webflux.routes[5].predicates[0]=Path=/shelves-fallback",
            "spring.cloud.gateway.server.webflux.routes[5].filters[0]=FallbackHeaders",
            "breakers.instances.shelves.failure-rate-threshold=50"
        })
class GatewayWebFluxApplicationTest {

    private static final Backend BACKEND = new Backend();

    @Autowired
    TestClock clock;

    @Autowired
    SpringCloudCircuitBreakerFilterFactory filterFactory;

    /** The server's port (LocalServerPort moved package in Boot 4; the property did not). */
    @Value("${local.server.port}")
    int port;

    Http http;

    @DynamicPropertySource
    static void backendUrl(DynamicPropertyRegistry registry) {
        registry.add("backend.url", BACKEND::url);
    }

    @AfterAll
    static void stopBackend() {
        BACKEND.close();
    }

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void theRouteFilterIsOurs() {
        assertThat(filterFactory).isInstanceOf(BreakerGatewayFilterFactory.class);
    }

    @Test
    void aTrippedRouteAnswers503WithRetryAfterUntilOneProbeClosesIt() throws Exception {
        for (int status : new int[] {500, 502}) {
            BACKEND.answer("inventory", status);
            assertThat(http.get("/inventory/42").statusCode())
                    .as("a counted status reaches the client")
                    .isEqualTo(status);
        }
        assertThat(BACKEND.arrivals("inventory")).isEqualTo(2);
        assertThat(breaker("inventory")).contains("\"state\":\"OPEN\"").contains("\"failedCalls\":2");

        HttpResponse<String> rejected = http.get("/inventory/42");
        assertThat(rejected.statusCode()).isEqualTo(503);
        assertThat(rejected.headers().firstValue("Retry-After")).hasValue("30");
        clock.advance(Duration.ofMillis(10_500));
        assertThat(http.get("/inventory/42").headers().firstValue("Retry-After"))
                .as("19.5 s rounded up")
                .hasValue("20");
        assertThat(BACKEND.arrivals("inventory")).as("not called while open").isEqualTo(2);

        BACKEND.answer("inventory", 200);
        clock.advance(Duration.ofSeconds(20));
        HttpResponse<String> probe = http.get("/inventory/42");
        assertThat(probe.statusCode()).isEqualTo(200);
        assertThat(probe.body()).isEqualTo("backend 200");
        assertThat(BACKEND.arrivals("inventory")).as("exactly one probe").isEqualTo(3);
        assertThat(breaker("inventory")).contains("\"state\":\"CLOSED\"");
    }

    @Test
    void theFallbackUriAnswersCountedStatusesAndRejections() throws Exception {
        BACKEND.answer("catalogue", 500);
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get("/catalogue/7");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("fallback");
        }
        assertThat(BACKEND.arrivals("catalogue")).isEqualTo(2);
        assertThat(breaker("catalogue")).contains("\"state\":\"OPEN\"").contains("\"failedCalls\":2");

        HttpResponse<String> rejected = http.get("/catalogue/7");
        assertThat(rejected.statusCode()).isEqualTo(200);
        assertThat(rejected.body()).isEqualTo("fallback");
        assertThat(BACKEND.arrivals("catalogue")).as("not called while open").isEqualTo(2);
        assertThat(breaker("catalogue")).contains("\"rejectedCalls\":1");
    }

    @Test
    void aFallbackRouteWithFallbackHeadersReceivesTheFailureAndTheRejection() throws Exception {
        BACKEND.answer("shelves", 500);
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get("/shelves/5");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).as("the fallback route's backend").isEqualTo("backend 200");
            assertThat(BACKEND.lastHeader("shelves-fallback", "Execution-Exception-Type"))
                    .as("the counted status, as the fallback saw it")
                    .endsWith("CircuitBreakerStatusCodeException");
            assertThat(BACKEND.lastHeader("shelves-fallback", "Execution-Exception-Message"))
                    .contains("500");
        }
        assertThat(breaker("shelves")).contains("\"state\":\"OPEN\"");

        HttpResponse<String> rejected = http.get("/shelves/5");
        assertThat(rejected.statusCode()).isEqualTo(200);
        assertThat(BACKEND.arrivals("shelves")).as("not called while open").isEqualTo(2);
        assertThat(BACKEND.arrivals("shelves-fallback")).isEqualTo(3);
        assertThat(BACKEND.lastHeader("shelves-fallback", "Execution-Exception-Type"))
                .isEqualTo(CircuitOpenException.class.getName());
        assertThat(BACKEND.lastHeader("shelves-fallback", "Execution-Exception-Message"))
                .contains("shelves");
    }

    @Test
    void aBackendThatHangsPastTheRoutesTimeoutTripsTheBreaker() throws Exception {
        BACKEND.hang("payments");
        for (int i = 0; i < 2; i++) {
            assertThat(http.get("/payments/3").statusCode())
                    .as("Gateway's timeout")
                    .isEqualTo(504);
        }
        assertThat(breaker("payments")).contains("\"state\":\"OPEN\"").contains("\"failedCalls\":2");

        HttpResponse<String> rejected = http.get("/payments/3");
        assertThat(rejected.statusCode()).isEqualTo(503);
        assertThat(rejected.headers().firstValue("Retry-After")).isPresent();
        assertThat(BACKEND.arrivals("payments")).as("not called while open").isEqualTo(2);
    }

    @Test
    void forcingTheBreakerOpenOverTheActuatorStopsTheTraffic() throws Exception {
        assertThat(http.get("/orders/1").statusCode()).isEqualTo(200);
        assertThat(BACKEND.arrivals("orders")).isEqualTo(1);

        assertThat(http.post("/actuator/breakers/orders", "{\"state\":\"OPEN\"}")
                        .statusCode())
                .isEqualTo(200);
        HttpResponse<String> rejected = http.get("/orders/1");
        assertThat(rejected.statusCode()).isEqualTo(503);
        assertThat(rejected.headers().firstValue("Retry-After"))
                .as("no wait is known while an operator holds it open")
                .isEmpty();
        assertThat(BACKEND.arrivals("orders")).isEqualTo(1);

        assertThat(http.post("/actuator/breakers/orders", "{\"state\":\"AUTO\"}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.get("/orders/1").statusCode()).isEqualTo(200);
        assertThat(BACKEND.arrivals("orders")).isEqualTo(2);
    }

    private String breaker(String name) throws Exception {
        HttpResponse<String> response = http.get("/actuator/breakers/" + name);
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Application {

        /** The breakers' clock (a {@code NanoClock} bean replaces the system's): the test moves it. */
        @Bean
        TestClock testClock() {
            return new TestClock();
        }

        @Bean
        FallbackController fallbackController() {
            return new FallbackController();
        }
    }

    @RestController
    static class FallbackController {

        @RequestMapping("/fallback")
        String fallback() {
            return "fallback";
        }
    }
}
