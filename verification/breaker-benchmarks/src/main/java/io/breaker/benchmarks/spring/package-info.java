/**
 * The annotation benchmarks ({@link io.breaker.benchmarks.spring.AnnotatedCall}): a call through a
 * {@code @CircuitProtected} proxy against the same method through resilience4j's {@code @CircuitBreaker},
 * both with the same fallback, CLOSED and OPEN, in one run; and the floors: the bare call without a
 * proxy, a pass-through {@code @Around} aspect, and a pass-through advisor with a static pointcut. Each
 * side runs in its own minimal application context ({@link io.breaker.benchmarks.spring.Contexts}).
 * The same classes run on either Spring Boot line: the default build is for Boot 3 with
 * resilience4j-spring-boot3, the {@code boot4} profile for Boot 4 with resilience4j-spring-boot4
 * ({@link io.breaker.benchmarks.spring.Resilience4jLine} picks resilience4j's module). Results and the
 * commands in {@code docs/benchmarks.md}. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.benchmarks.spring;

import org.jspecify.annotations.NullMarked;
