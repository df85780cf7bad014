/**
 * The circuit breaker, as applications and integrations use it: {@link io.breaker.CircuitBreaker},
 * its settings ({@link io.breaker.BreakerConfig}), named breakers ({@link io.breaker.BreakerRegistry}),
 * listeners, states and exceptions. Everything public here is for users; the engine's machinery (the
 * state machine's phases, the sliding windows, the fleet protocol) is package-private and may change
 * without notice. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker;

import org.jspecify.annotations.NullMarked;
