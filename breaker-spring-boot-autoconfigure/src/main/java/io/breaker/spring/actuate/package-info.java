/**
 * The operators' side: the {@code breakers} actuator endpoint and its web extension, the event stream,
 * the console, runtime settings and the health check's logic. Applications reach it over HTTP or JMX; the
 * classes are internal, but for the response records, whose JSON is the endpoint's contract.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.actuate;

import org.jspecify.annotations.NullMarked;
