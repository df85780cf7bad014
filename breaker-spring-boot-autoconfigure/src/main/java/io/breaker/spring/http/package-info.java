/** Reading what an HTTP dependency's responses tell a breaker (their {@code Retry-After}). */
@NullMarked
package io.breaker.spring.http;

import org.jspecify.annotations.NullMarked;
