/**
 * The advice behind {@code @CircuitProtected}: the advisor, the validation of annotated methods at start-up,
 * fallback resolution and one call path per return type (plain, {@code CompletionStage}, Reactor, Kotlin's
 * {@code suspend fun} and {@code Flow}).
 * Internal to the starter: applications use the annotation, not these classes.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.aop;

import org.jspecify.annotations.NullMarked;
