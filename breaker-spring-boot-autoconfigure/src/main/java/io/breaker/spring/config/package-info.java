/**
 * Breaker settings as properties, for the auto-configuration and the actuator alike: the one mapping
 * idiom that ties each property of a section to its setting ({@link io.breaker.spring.config.MappedSettings}),
 * the loading of exception classes by name, values written back as a user writes them
 * ({@link io.breaker.spring.config.PropertyValues}), and the exception that reports a bad value. The
 * other breaker modules use the last two for their own properties. This package depends on
 * breaker-core and Spring only, never on the auto-configuration or the actuator packages.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.config;

import org.jspecify.annotations.NullMarked;
