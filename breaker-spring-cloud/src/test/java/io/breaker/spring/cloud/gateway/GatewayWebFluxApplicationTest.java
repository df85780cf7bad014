package io.breaker.spring.cloud.gateway;

import io.breaker.CircuitOpenException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Cloud Gateway on WebFlux with routes in properties through the {@code CircuitBreaker} filter,
 * as users write them: the {@link GatewayRouteContract} both servers keep (a counted status reaches the
 * client with Gateway's error body), a fallback route with Gateway's {@code FallbackHeaders} filter
 * receiving the failure in headers without resilience4j, and a backend that hangs past the route's
 * timeout.
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
class GatewayWebFluxApplicationTest extends GatewayRouteContract {

    @Autowired
    SpringCloudCircuitBreakerFilterFactory filterFactory;

    @Override
    void assertCountedAnswer(HttpResponse<String> response, int status) {
        assertThat(response.statusCode())
                .as("a counted status reaches the client")
                .isEqualTo(status);
    }

    @Test
    void theRouteFilterIsOurs() {
        assertThat(filterFactory).isInstanceOf(BreakerGatewayFilterFactory.class);
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

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(GatewayRouteContract.TestBeans.class)
    static class Application {}
}
