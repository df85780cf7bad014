/**
 * The HTTP client of the wholesaler, the call the breaker protects.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.sample.wholesaler;

import org.jspecify.annotations.NullMarked;
