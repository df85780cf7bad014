/**
 * Extension points for authors of state stores, which share a breaker's state between the instances
 * of an application ({@link io.breaker.spi.StateStore}, {@link io.breaker.spi.SharedState}, the
 * fleet's answers in {@link io.breaker.spi.SharedVerdict}, and {@link io.breaker.spi.OutcomeBits}, how
 * a window records a call). An application that only protects calls needs nothing from this package.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spi;

import org.jspecify.annotations.NullMarked;
