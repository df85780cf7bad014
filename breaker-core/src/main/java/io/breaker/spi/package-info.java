/**
 * Extension points for authors of state stores, which share a breaker's state between the instances
 * of an application ({@link io.breaker.spi.StateStore}, {@link io.breaker.spi.SharedState}), and for
 * integrations that drive a breaker through the two-step API ({@link io.breaker.spi.Integration}).
 * An application that only protects calls needs nothing from this package. Nothing is null unless
 * marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spi;

import org.jspecify.annotations.NullMarked;
