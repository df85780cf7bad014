/**
 * Spring Cloud CircuitBreaker on breaker's breakers: {@link io.breaker.spring.cloud.BreakerCircuitBreakerFactory}
 * and {@link io.breaker.spring.cloud.ReactiveBreakerCircuitBreakerFactory} hand out the breakers of the
 * application's {@code BreakerRegistry}, so that OpenFeign clients and
 * {@code circuitBreakerFactory.create(id).run(...)} count, trip and show in {@code /actuator/breakers}
 * like {@code @CircuitProtected} methods. Applications inject the factories (as Spring Cloud's
 * {@code CircuitBreakerFactory} or by these types) and configure them through
 * {@link io.breaker.spring.cloud.CloudBreakerConfigBuilder}; everything else here is internal.
 */
@NullMarked
package io.breaker.spring.cloud;

import org.jspecify.annotations.NullMarked;
