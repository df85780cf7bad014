/**
 * JMH benchmarks of breaker side by side with resilience4j and Failsafe, and the tools that turn their
 * results into the tables of {@code docs/benchmarks.md}. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.benchmarks;

import org.jspecify.annotations.NullMarked;
