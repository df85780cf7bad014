/**
 * The sample bookshop: an application whose delivery-time answers go through a breaker.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.sample;

import org.jspecify.annotations.NullMarked;
