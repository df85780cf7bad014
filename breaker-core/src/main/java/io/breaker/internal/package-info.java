/**
 * Not API, may change in any release; used by breaker's own integrations such as the Spring starter.
 * {@link io.breaker.internal.Integration} drives a breaker's call path with the call's own clock
 * readings, so that an integration that times its calls anyway spares the breaker a reading. An
 * application that protects calls uses {@link io.breaker.CircuitBreaker} and needs nothing from
 * here. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.internal;

import org.jspecify.annotations.NullMarked;
