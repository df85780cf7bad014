package io.breaker.spring.cloud.gateway;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.cloud.gateway.server.mvc.filter.BeforeFilterFunctions.uri;
import static org.springframework.cloud.gateway.server.mvc.handler.GatewayRouterFunctions.route;
import static org.springframework.cloud.gateway.server.mvc.handler.HandlerFunctions.http;

/**
 * Spring Cloud Gateway Server MVC with routes in properties ({@code - name: CircuitBreaker}, which finds
 * {@link BreakerFilterFunctions} before Gateway's own filter) and in the Java DSL: the
 * {@link GatewayRouteContract} both servers keep (a counted status reaches the client as the backend
 * gave it), a Java DSL route falling back like a properties one, a fallback URI's template variables
 * expanded from the request's path, and a backend that hangs past the read timeout.
 */
@Tag("boot-line")
@SpringBootTest(
        classes = GatewayServerMvcApplicationTest.Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=breakers",
            "breakers.defaults.sliding-window-size=2",
            "breakers.defaults.minimum-number-of-calls=2",
            "breakers.defaults.wait-duration-in-open-state=30s",
            "breakers.instances.inventory.permitted-calls-in-half-open-state=1",
            "breakers.instances.catalogue.failure-rate-threshold=50",
            "breakers.instances.orders.failure-rate-threshold=50",
            "breakers.instances.reviews.failure-rate-threshold=50",
            "spring.cloud.gateway.server.webmvc.routes[0].id=inventory",
            "spring.cloud.gateway.server.webmvc.routes[0].uri=${backend.url}",
            "spring.cloud.gateway.server.webmvc.routes[0].predicates[0]=Path=/inventory/**",
            "spring.cloud.gateway.server.webmvc.routes[0].filters[0].name=CircuitBreaker",
            "spring.cloud.gateway.server.webmvc.routes[0].filters[0].args.id=inventory",
            "spring.cloud.gateway.server.webmvc.routes[0].filters[0].args.statusCodes[0]=500",
            "spring.cloud.gateway.server.webmvc.routes[0].filters[0].args.statusCodes[1]=502",
            "spring.cloud.gateway.server.webmvc.routes[1].id=catalogue",
            "spring.cloud.gateway.server.webmvc.routes[1].uri=${backend.url}",
            "spring.cloud.gateway.server.webmvc.routes[1].predicates[0]=Path=/catalogue/**",
            "spring.cloud.gateway.server.webmvc.routes[1].filters[0].name=CircuitBreaker",
            "spring.cloud.gateway.server.webmvc.routes[1].filters[0].args.id=catalogue",
            "spring.cloud.gateway.server.webmvc.routes[1].filters[0].args.fallbackUri=forward:/fallback",
            "spring.cloud.gateway.server.webmvc.routes[1].filters[0].args.statusCodes[0]=INTERNAL_SERVER_ERROR",
            "spring.cloud.gateway.server.webmvc.routes[2].id=orders",
            "spring.cloud.gateway.server.webmvc.routes[2].uri=${backend.url}",
            "spring.cloud.gateway.server.webmvc.routes[2].predicates[0]=Path=/orders/**",
            "spring.cloud.gateway.server.webmvc.routes[2].filters[0]=CircuitBreaker=orders",
            "spring.cloud.gateway.server.webmvc.routes[3].id=payments",
            "spring.cloud.gateway.server.webmvc.routes[3].uri=${backend.url}",
            "spring.cloud.gateway.server.webmvc.routes[3].predicates[0]=Path=/payments/**",
            "spring.cloud.gateway.server.webmvc.routes[3].filters[0]=CircuitBreaker=payments",
            "breakers.instances.payments.failure-rate-threshold=50",
            "spring.cloud.gateway.server.webmvc.routes[4].id=shelves",
            "spring.cloud.gateway.server.webmvc.routes[4].uri=${backend.url}",
            "spring.cloud.gateway.server.webmvc.routes[4].predicates[0]=Path=/shelves/{shelf}",
            "spring.cloud.gateway.server.webmvc.routes[4].filters[0].name=CircuitBreaker",
            "spring.cloud.gateway.server.webmvc.routes[4].filters[0].args.id=shelves",
            "spring.cloud.gateway.server.webmvc.routes[4].filters[0].args.fallbackUri=forward:/fallback/{shelf}",
            "spring.cloud.gateway.server.webmvc.routes[4].filters[0].args.statusCodes[0]=500",
            "breakers.instances.shelves.failure-rate-threshold=50",
            "breakers.instances.racks.failure-rate-threshold=50",
            // Gateway Server MVC's HTTP client is Boot's: its read timeout is spring.http.client.* on Boot 3.5,
            // spring.http.clients.* on Boot 4 (each line ignores the other's key).
            "spring.http.client.read-timeout=1s",
            "spring.http.clients.read-timeout=1s"
        })
class GatewayServerMvcApplicationTest extends GatewayRouteContract {

    @Override
    void assertCountedAnswer(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.body()).as("the backend's own answer").isEqualTo("backend " + status);
    }

    @Test
    void aJavaDslRouteFallsBackLikeAPropertiesOne() throws Exception {
        assertFallbackAnswers("reviews");
    }

    @Test
    void aFallbackUriWithTemplateVariablesIsExpandedFromThePathPredicate() throws Exception {
        assertTemplatedFallbackAnswers("shelves");
    }

    @Test
    void aJavaDslFallbackUriWithTemplateVariablesIsExpandedFromTheRequestPredicate() throws Exception {
        assertTemplatedFallbackAnswers("racks");
    }

    private void assertTemplatedFallbackAnswers(String segment) throws Exception {
        BACKEND.answer(segment, 500);
        for (String name : new String[] {"poetry", "history"}) {
            HttpResponse<String> response = http.get("/" + segment + "/" + name);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("fallback for " + name);
        }
        assertThat(breaker(segment)).contains("\"state\":\"OPEN\"");
        HttpResponse<String> rejected = http.get("/" + segment + "/maps");
        assertThat(rejected.body()).as("a rejection forwards the same way").isEqualTo("fallback for maps");
        assertThat(BACKEND.arrivals(segment)).as("not called while open").isEqualTo(2);
    }

    @Test
    void aBackendThatHangsPastTheReadTimeoutTripsTheBreaker() throws Exception {
        BACKEND.hang("payments");
        for (int i = 0; i < 2; i++) {
            assertThat(http.get("/payments/3").statusCode())
                    .as("the read timeout's error, as Spring MVC answers it on this line")
                    .isBetween(500, 599)
                    .isNotEqualTo(503);
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
    static class Application {

        @Bean
        RouterFunction<ServerResponse> reviews(@Value("${backend.url}") String backendUrl) {
            return route("reviews")
                    .GET("/reviews/**", http())
                    .before(uri(backendUrl))
                    .filter(BreakerFilterFunctions.circuitBreaker(config -> config.setId("reviews")
                            .setFallbackUri("forward:/fallback")
                            .setStatusCodes("500")))
                    .build();
        }

        @Bean
        RouterFunction<ServerResponse> racks(@Value("${backend.url}") String backendUrl) {
            return route("racks")
                    .GET("/racks/{rack}", http())
                    .before(uri(backendUrl))
                    .filter(BreakerFilterFunctions.circuitBreaker(config -> config.setId("racks")
                            .setFallbackUri("forward:/fallback/{rack}")
                            .setStatusCodes("500")))
                    .build();
        }
    }
}
