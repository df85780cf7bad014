/**
 * The Micrometer meters of every breaker ({@code breaker.calls}, {@code breaker.state}, ...), bound once per
 * breaker. Internal: applications read the meters, not these classes.
 */
package io.breaker.spring.metrics;
