/**
 * The transition log: one key=value line per transition on {@code io.breaker.transitions}. Internal.
 */
package io.breaker.spring.logging;
