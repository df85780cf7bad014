/**
 * The Spring API of breaker: {@link io.breaker.spring.CircuitProtected}, the annotation applications put
 * on the methods a breaker protects, and the rules for breaker names. Public API.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring;

import org.jspecify.annotations.NullMarked;
