/**
 * Spring Cloud Gateway routes through breaker's breakers, on both of Gateway's servers.
 *
 * <p>On WebFlux, {@link io.breaker.spring.cloud.gateway.BreakerGatewayFilterFactory} is the route filter
 * {@code CircuitBreaker}; on Server MVC, {@link io.breaker.spring.cloud.gateway.BreakerFilterFunctions}
 * gives the filter function {@code circuitBreaker} for the Java DSL and for routes in properties. Both
 * take the breaker from Spring Cloud's factory of their server, count the backend statuses listed under
 * {@code statusCodes} as failures, forward to the {@code fallbackUri} when one is set, and otherwise
 * answer a call the breaker rejects with 503 and {@code Retry-After}.
 */
@NullMarked
package io.breaker.spring.cloud.gateway;

import org.jspecify.annotations.NullMarked;
