/**
 * The {@code breakers} and {@code breakerStore} health contributors as Spring Boot 3's health types, adapters
 * around the line-independent checks. Internal to the starter.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.boot3.actuate;

import org.jspecify.annotations.NullMarked;
