/**
 * Requests refused before any controller sees them (by the server, or by Spring Security's firewall)
 * answered as RFC 9457 problem+json with a message, like every other error of the bookshop.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.sample.errors;

import org.jspecify.annotations.NullMarked;
