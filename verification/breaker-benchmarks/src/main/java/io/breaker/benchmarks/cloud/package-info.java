/**
 * The Spring Cloud CircuitBreaker suite: {@code factory.create(id).run(supplier, fallback)} on our
 * factory and on resilience4j's implementation of the same SPI, CLOSED and OPEN, on 1, 2 and 4 threads.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.benchmarks.cloud;

import org.jspecify.annotations.NullMarked;
