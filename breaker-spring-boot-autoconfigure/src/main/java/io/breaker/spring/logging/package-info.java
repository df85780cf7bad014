/**
 * The transition log: one key=value line per transition on {@code io.breaker.transitions}. Internal.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.logging;

import org.jspecify.annotations.NullMarked;
