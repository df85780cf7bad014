/**
 * Spring Boot auto-configuration of the breakers: {@code breakers.*} properties, the registry, the
 * start-up checks of properties and Boot line, and their failure analyses. Applications configure it through
 * properties and {@link io.breaker.spring.autoconfigure.BreakerConfigCustomizer} beans; the rest is internal.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
