/**
 * The annotation benchmarks ({@link io.breaker.benchmarks.spring.AnnotatedCall}): a call through a
 * {@code @CircuitProtected} proxy against the same method through resilience4j's {@code @CircuitBreaker},
 * both with the same fallback, CLOSED and OPEN, in one run; and the floors: the bare call without a
 * proxy, a pass-through {@code @Around} aspect, and a pass-through advisor with a static pointcut. Each
 * side runs in its own minimal application context ({@link io.breaker.benchmarks.spring.Contexts}).
 * These sources are compiled twice: in breaker-benchmarks against Spring Boot 3 and
 * resilience4j-spring-boot3, in breaker-benchmarks-boot4 against Spring Boot 4 and
 * resilience4j-spring-boot4; what differs is in {@link io.breaker.benchmarks.spring.line.BootLine}, one
 * per module. Results and the commands in {@code docs/benchmarks.md}.
 */
package io.breaker.benchmarks.spring;
