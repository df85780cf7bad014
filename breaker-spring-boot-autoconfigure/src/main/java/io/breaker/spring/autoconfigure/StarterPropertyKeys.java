package io.breaker.spring.autoconfigure;

import java.util.Map;

/** The starter's keys: {@code breakers.enabled}, {@code aspect-order}, {@code defaults}, {@code instances}, {@code health} and {@code console}. */
final class StarterPropertyKeys implements BreakerPropertyKeys {

    @Override
    public Map<String, Class<?>> boundClasses() {
        return Map.of(
                "breakers",
                BreakerProperties.class,
                "breakers.health",
                BreakerHealthProperties.class,
                "breakers.console",
                BreakerConsoleProperties.class);
    }
}
