/**
 * The Micrometer meters of every breaker ({@code breaker.calls}, {@code breaker.state}, ...), bound once per
 * breaker. Internal: applications read the meters, not these classes.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.metrics;

import org.jspecify.annotations.NullMarked;
