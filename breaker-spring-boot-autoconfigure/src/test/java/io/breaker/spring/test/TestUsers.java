package io.breaker.spring.test;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;

import java.security.Principal;

/**
 * Stands in for Spring Security on either web stack: a request with the header {@value #HEADER} is
 * made by the user it names (the servlet request's user principal, or the exchange's principal on
 * WebFlux), percent-escapes decoded; a request without it is anonymous. Each stack uses its own filter and ignores the other.
 */
@Configuration(proxyBeanMethods = false)
public class TestUsers {

    /** The header that names the authenticated user. */
    public static final String HEADER = "X-Test-User";

    @Bean
    Filter testUsersServletFilter() {
        return (request, response, chain) -> {
            String user = decoded(((HttpServletRequest) request).getHeader(HEADER));
            if (user == null) {
                chain.doFilter(request, response);
                return;
            }
            Principal principal = () -> user;
            chain.doFilter(
                    new HttpServletRequestWrapper((HttpServletRequest) request) {
                        @Override
                        public Principal getUserPrincipal() {
                            return principal;
                        }
                    },
                    response);
        };
    }

    @Bean
    WebFilter testUsersWebFilter() {
        return (exchange, chain) -> {
            String user = decoded(exchange.getRequest().getHeaders().getFirst(HEADER));
            if (user == null) {
                return chain.filter(exchange);
            }
            Principal principal = () -> user;
            return chain.filter(
                    exchange.mutate().principal(Mono.just(principal)).build());
        };
    }

    /** Percent-escapes let a test name a principal no HTTP header could carry (CR, LF). */
    private static String decoded(String header) {
        return header == null ? null : java.net.URLDecoder.decode(header, java.nio.charset.StandardCharsets.UTF_8);
    }
}
