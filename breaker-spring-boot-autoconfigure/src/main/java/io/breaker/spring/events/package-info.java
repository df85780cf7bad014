/**
 * Spring application events for breaker transitions: applications listen for
 * {@link io.breaker.spring.events.BreakerTransitionEvent}. Public API.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.events;

import org.jspecify.annotations.NullMarked;
