/**
 * JMH benchmarks of breaker side by side with resilience4j and Failsafe, and the tools that turn their
 * results into the tables of {@code docs/benchmarks.md}.
 */
package io.breaker.benchmarks;
