/**
 * Who may steer the breakers: reading is open, changes need the operator.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.sample.security;

import org.jspecify.annotations.NullMarked;
