package io.breaker.spring.cloud.gateway;

import io.breaker.spring.cloud.TestClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a Gateway route with breaker's circuit-breaker filter does on either server, over real HTTP in
 * front of a real {@link Backend}: a subclass starts one Gateway application (its {@code @SpringBootTest},
 * with {@link TestBeans}) whose routes in properties are {@code inventory} (statusCodes 500 and 502, one
 * probe), {@code catalogue} ({@code fallbackUri: forward:/fallback}, statusCode
 * {@code INTERNAL_SERVER_ERROR}) and {@code orders} (no fallback), each on the breaker of its name, with
 * a count window of 2, a minimum of 2 calls and a 30 s wait. One subclass per JVM: the two Gateways
 * cannot share a class path, so each suite runs in its own Surefire execution, and the backend is
 * stopped after it.
 */
abstract class GatewayRouteContract {

    static final Backend BACKEND = new Backend();

    @Autowired
    TestClock clock;

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

    /** What the client gets when the backend answered {@code status}, a status the route counts. */
    abstract void assertCountedAnswer(HttpResponse<String> response, int status);

    @Test
    void aTrippedRouteAnswers503WithRetryAfterUntilOneProbeClosesIt() throws Exception {
        for (int status : new int[] {500, 502}) {
            BACKEND.answer("inventory", status);
            assertCountedAnswer(http.get("/inventory/42"), status);
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
        assertFallbackAnswers("catalogue");
    }

    /** The route under {@code /segment}, whose backend now fails with 500, is answered by {@code /fallback}. */
    void assertFallbackAnswers(String segment) throws Exception {
        BACKEND.answer(segment, 500);
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get("/" + segment + "/7");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("fallback");
        }
        assertThat(BACKEND.arrivals(segment)).isEqualTo(2);
        assertThat(breaker(segment)).contains("\"state\":\"OPEN\"").contains("\"failedCalls\":2");

        HttpResponse<String> rejected = http.get("/" + segment + "/7");
        assertThat(rejected.statusCode()).isEqualTo(200);
        assertThat(rejected.body()).isEqualTo("fallback");
        assertThat(BACKEND.arrivals(segment)).as("not called while open").isEqualTo(2);
        assertThat(breaker(segment)).contains("\"rejectedCalls\":1");
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

    /** The breaker {@code name} as {@code /actuator/breakers} shows it. */
    String breaker(String name) throws Exception {
        HttpResponse<String> response = http.get("/actuator/breakers/" + name);
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** The beans of both Gateway applications: the breakers' clock and the fallback's controller. */
    @Configuration(proxyBeanMethods = false)
    static class TestBeans {

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

        @RequestMapping("/fallback/{name}")
        String fallbackFor(@PathVariable("name") String name) {
            return "fallback for " + name;
        }
    }
}
