package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.ClassUtils;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link OperatorRoutesAccessRuleContract} on WebFlux: the same documented rule, {@code EndpointRequest.to("breakers")}
 * from the reactive side of Spring Security, on a {@code ServerHttpSecurity} chain of an application served by
 * Reactor Netty, holds for every route of the endpoint ({@link ReactiveBreakerOperatorRoutes} and the endpoint's own
 * operations), under a path mapping and on a management port of its own: an anonymous client reads, changes and
 * streams nothing, an operator does, and nothing answers at the unmapped path. The reactive {@code EndpointRequest}
 * is in another package on each Boot line, so each line's adapter module runs this with the line's own class
 * ({@link #rule}).
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = ReactiveOperatorRoutesAccessRuleContract.App.class,
        properties = {
            "spring.main.web-application-type=reactive",
            "management.server.port=0",
            "management.endpoints.web.exposure.include=breakers",
            "management.endpoints.web.path-mapping.breakers=circuit-breakers",
            "breakers.console.enabled=true",
            "breakers.instances.wholesaler.failure-rate-threshold=50"
        })
public abstract class ReactiveOperatorRoutesAccessRuleContract {

    /**
     * The line's reactive {@code EndpointRequest.to("breakers")}, a {@code ServerWebExchangeMatcher}, for the
     * application's security configuration; typed {@code Object} so that a line's test class loads, and is skipped,
     * where Spring Security is left off the class path.
     */
    static Supplier<Object> rule;

    @LocalServerPort
    private int port;

    @Autowired
    private Environment environment;

    @Autowired
    private BreakerRegistry registry;

    protected ReactiveOperatorRoutesAccessRuleContract(Supplier<Object> endpointRule) {
        Assumptions.assumeTrue(
                ClassUtils.isPresent("org.springframework.security.web.server.SecurityWebFilterChain", null),
                "Spring Security is on the class path of this test's own execution only");
        rule = endpointRule;
    }

    /** The management server on Reactor Netty too, though Tomcat is on the class path for the servlet contract. */
    @DynamicPropertySource
    static void onReactorNettyOnly(DynamicPropertyRegistry registry) {
        registry.add("spring.autoconfigure.exclude", BootLine::tomcatReactiveManagementAutoConfiguration);
    }

    @Test
    void theDocumentedRuleCoversEveryRouteWhereverTheEndpointIsMapped() throws Exception {
        int management = environment.getRequiredProperty("local.management.port", Integer.class);
        String endpoint = "http://localhost:" + management + "/actuator/circuit-breakers";
        String config = endpoint + "/wholesaler/config";
        String lower = "{\"failure-rate-threshold\": 100, \"minimum-number-of-calls\": 100}";

        assertThat(send("GET", config, null, false).statusCode()).isEqualTo(401);
        assertThat(send("POST", config, lower, false).statusCode()).isEqualTo(401);
        assertThat(send("DELETE", config, null, false).statusCode()).isEqualTo(401);
        assertThat(send("GET", endpoint + "/stream", null, false).statusCode()).isEqualTo(401);
        assertThat(send("GET", endpoint + "/console", null, false).statusCode()).isEqualTo(401);
        assertThat(send("POST", endpoint + "/wholesaler", "{\"state\": \"OPEN\"}", false)
                        .statusCode())
                .isEqualTo(401);
        for (String unmapped : new String[] {
            "http://localhost:" + management + "/actuator/breakers/wholesaler/config",
            "http://localhost:" + port + "/actuator/breakers/wholesaler/config",
            "http://localhost:" + port + "/actuator/circuit-breakers/wholesaler/config"
        }) {
            assertThat(send("POST", unmapped, lower, false).statusCode())
                    .as(unmapped)
                    .isIn(401, 404);
        }
        assertThat(registry.breaker("wholesaler").getConfig().getFailureRateThreshold())
                .isEqualTo(50f);
        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(io.breaker.State.CLOSED);

        assertThat(send("GET", config, null, true).statusCode()).isEqualTo(200);
        assertThat(send("GET", endpoint + "/console", null, true).statusCode()).isEqualTo(200);
        HttpResponse<String> changed = send("POST", config, "{\"failure-rate-threshold\": 40}", true);
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.body()).contains("\"principal\":\"ops\"");
        assertThat(send("DELETE", config, null, true).statusCode()).isEqualTo(200);
    }

    private static HttpResponse<String> send(String method, String uri, String body, boolean operator)
            throws Exception {
        String credentials = Base64.getEncoder().encodeToString("ops:ops-secret".getBytes(StandardCharsets.UTF_8));
        return operator
                ? OperatorRoutesPathMappingHttpTest.send(method, uri, body, "Authorization", "Basic " + credentials)
                : OperatorRoutesPathMappingHttpTest.send(method, uri, body);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OnReactorNetty.class)
    static class App {

        /** The rule docs/operations.md gives, on WebFlux: the whole endpoint needs the role, the rest is open. */
        @Bean
        SecurityWebFilterChain security(ServerHttpSecurity http) {
            return http.authorizeExchange(exchanges -> exchanges
                            .matchers((ServerWebExchangeMatcher) rule.get())
                            .hasRole("OPS")
                            .anyExchange()
                            .permitAll())
                    .httpBasic(Customizer.withDefaults())
                    .csrf(csrf -> csrf.disable())
                    .build();
        }

        @Bean
        MapReactiveUserDetailsService operators() {
            return new MapReactiveUserDetailsService(User.withUsername("ops")
                    .password("{noop}ops-secret")
                    .roles("OPS")
                    .build());
        }
    }
}
