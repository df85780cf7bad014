package io.breaker.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a method through the circuit breaker called {@link #name()}. On a class, every public method
 * of the class is protected; an annotation on a method wins over the one on its class.
 *
 * <pre>{@code
 * @CircuitProtected(name = "wholesaler", fallbackMethod = "deliveryFallback")
 * public int deliveryDays(String isbn) { ... }
 *
 * private int deliveryFallback(String isbn, CircuitOpenException rejected) { return 14; }
 * private int deliveryFallback(String isbn, Throwable failure) { return 21; }
 * }</pre>
 *
 * <p>A fallback has the parameters of the protected method, optionally followed by one
 * {@link Throwable} (or subtype) parameter, and a return type the method may return. It may be
 * private. Among overloads, the one whose exception parameter is the most specific type for the
 * exception at hand wins; one without an exception parameter serves any exception. It runs when the
 * breaker rejects the call and when the call fails with an exception the breaker records; exceptions
 * the breaker ignores reach the caller unchanged. Fallbacks are checked at start-up: a missing one, or
 * one whose signature cannot serve the method, stops the application.
 *
 * <p>Supported return types: any value, {@code void}, {@code CompletionStage}/{@code CompletableFuture}
 * (the outcome is recorded when the future completes) and, with reactor-core on the classpath,
 * {@code Mono}/{@code Flux} (permission at subscription, outcome at termination); in Kotlin, with
 * kotlin-reflect and kotlinx-coroutines-reactor on the classpath, a {@code suspend fun} (counted as a
 * {@code Mono}, its fallback a {@code suspend fun} too) and {@code Flow} (counted as a {@code Flux}, per
 * collection).
 *
 * <p>Like every proxy-based annotation, it applies only to calls that come through the Spring proxy:
 * a call from one method of the bean to another ({@code this.deliveryDays(...)}) is not protected.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface CircuitProtected {

    /**
     * Name of the breaker: configured under {@code breakers.instances.<name>}, or given the
     * {@code breakers.defaults} if it is not configured.
     */
    String name();

    /** Name of a method of the same class to call instead when the call is rejected or fails; empty for none. */
    String fallbackMethod() default "";
}
