package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The properties of the starter's optional parts ({@code breakers.console.*}, {@code breakers.health.*}),
 * checked whether or not that part is on: the endpoint not exposed or the health contributor off must
 * not let a bad value wait for the day it is switched on.
 */
final class FeatureProperties {

    private FeatureProperties() {}

    /**
     * Binds each part's properties as its own configuration does (a value that does not convert stops
     * start-up), and with a registry, checks the breaker names of {@code breakers.health.down-when-open}.
     */
    static void check(Environment environment, @Nullable BreakerRegistry registry) {
        Binder binder = Binder.get(environment);
        binder.bindOrCreate("breakers.console", BreakerConsoleProperties.class);
        BreakerHealthProperties health = binder.bindOrCreate("breakers.health", BreakerHealthProperties.class);
        if (registry != null) {
            DownWhenOpenNames.check(health.getDownWhenOpen(), registry);
        }
    }
}
