/**
 * Spring application events for breaker transitions: applications listen for
 * {@link io.breaker.spring.events.BreakerTransitionEvent}. Public API.
 */
package io.breaker.spring.events;
