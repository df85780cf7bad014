package io.breaker.spring.autoconfigure;

import java.util.Map;

/** The starter's keys: {@code breakers.enabled}, {@code aspect-order}, {@code defaults}, {@code instances} and {@code health}. */
final class StarterPropertyKeys implements BreakerPropertyKeys {

    @Override
    public Map<String, Class<?>> boundClasses() {
        return Map.of("breakers", BreakerProperties.class, "breakers.health", BreakerHealthProperties.class);
    }
}
