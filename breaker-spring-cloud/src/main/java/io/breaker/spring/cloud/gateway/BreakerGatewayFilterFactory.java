package io.breaker.spring.cloud.gateway;

import io.breaker.CircuitOpenException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The {@code CircuitBreaker} route filter of Spring Cloud Gateway on WebFlux, on the breakers of
 * {@link io.breaker.spring.cloud.ReactiveBreakerCircuitBreakerFactory}:
 *
 * <pre>{@code
 * filters:
 *   - name: CircuitBreaker
 *     args: {name: backend, fallbackUri: forward:/fallback, statusCodes: [500, 503]}
 * }</pre>
 *
 * <p>{@code name} is the breaker ({@code breakers.instances.backend}); without it, the route's id.
 * The backend's call counts as the breaker's rules say; an answer whose status is listed under
 * {@code statusCodes} counts as a failure. When the call failed or the breaker rejected it, a
 * {@code fallbackUri} ({@code forward:/path}) answers; without one, a rejected call gets 503 with
 * {@code Retry-After} (whole seconds until the breaker lets a probe through, when it knows), an
 * answer counted by its status gets that status from Gateway's error handling, and an error reaches it
 * unchanged ({@code resumeWithoutError} answers both with an empty response instead).
 */
public class BreakerGatewayFilterFactory extends SpringCloudCircuitBreakerFilterFactory {

    public BreakerGatewayFilterFactory(
            ReactiveCircuitBreakerFactory reactiveCircuitBreakerFactory,
            ObjectProvider<DispatcherHandler> dispatcherHandler) {
        super(reactiveCircuitBreakerFactory, dispatcherHandler);
    }

    @Override
    public GatewayFilter apply(Config config) {
        String id = config.getId();
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("CircuitBreaker filter of route '" + config.getRouteId()
                    + "': name the breaker (args: name), or give the route an id");
        }
        StatusCodes.parse(config.getStatusCodes(), "CircuitBreaker filter of route '" + config.getRouteId() + "'");
        GatewayFilter filter = super.apply(config);
        return new GatewayFilter() {
            @Override
            public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
                return filter.filter(exchange, chain)
                        .onErrorResume(CircuitOpenException.class, rejection -> rejected(exchange, rejection));
            }

            @Override
            public String toString() {
                return filter.toString();
            }
        };
    }

    /**
     * Without a fallback: a rejection goes on to {@link #apply}'s filter, which answers it; a backend
     * status counted as a failure becomes an error of that status (Gateway's error handling would
     * answer 500 for its exception); other errors go on as they are, or end in an empty response with
     * {@code resumeWithoutError}.
     */
    @Override
    protected Mono<Void> handleErrorWithoutFallback(Throwable error, boolean resumeWithoutError) {
        if (error instanceof CircuitOpenException) {
            return Mono.error(error);
        }
        if (resumeWithoutError) {
            return Mono.empty();
        }
        if (error instanceof CircuitBreakerStatusCodeException counted) {
            return Mono.error(new ResponseStatusException(counted.getStatusCode(), counted.getMessage(), counted));
        }
        return Mono.error(error);
    }

    private static Mono<Void> rejected(ServerWebExchange exchange, CircuitOpenException rejection) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(rejection);
        }
        response.setStatusCode(HttpStatus.valueOf(Rejections.STATUS));
        String retryAfter = Rejections.retryAfter(rejection);
        if (retryAfter != null) {
            response.getHeaders().set(HttpHeaders.RETRY_AFTER, retryAfter);
        }
        return response.setComplete();
    }
}
