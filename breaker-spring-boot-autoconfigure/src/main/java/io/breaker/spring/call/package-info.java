/**
 * The outcome rules every Spring integration of breaker shares, so that a call counts the same
 * whichever way it reaches a breaker: which outcome a call records, when a fallback answers (a
 * rejection, or an error the breaker counted as a failure; an ignored error never), how a
 * {@code Mono} or {@code Flux} counts a partial read or a cancel. Used by the {@code @CircuitProtected}
 * advice ({@code io.breaker.spring.aop}) and by {@code breaker-spring-cloud}. Not API: it may change
 * in any release, and applications need nothing from here. Nothing is null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.call;

import org.jspecify.annotations.NullMarked;
