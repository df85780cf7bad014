package io.breaker.spring.config;

import io.breaker.Setting;

/**
 * Which breaker settings the application's configuration sets for a breaker, so that the actuator
 * can tell a value from YAML from a default or one set in code.
 */
@FunctionalInterface
public interface ConfiguredSettings {

    /** Whether the configuration sets {@code setting} for the named breaker: in its own section or in the defaults. */
    boolean sets(String breakerName, Setting<?> setting);
}
