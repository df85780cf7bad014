/**
 * A breaker state shared by a fleet through Redis: the store (an implementation of the core's
 * {@code io.breaker.spi.StateStore}), its Lua scripts, settings ({@code breakers.store.*}), health status,
 * meters and auto-configuration. Applications configure it with properties; the classes are internal.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.redis;

import org.jspecify.annotations.NullMarked;
