package io.breaker.spi;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Where breakers keep a state shared by several instances of an application. The default is no
 * store: every breaker lives in memory. A {@link BreakerRegistry} built with a store asks it once per
 * breaker, when the breaker is created.
 */
@FunctionalInterface
public interface StateStore {

    /**
     * The shared state for the breaker {@code name}, or {@code null} to keep that breaker in memory only.
     *
     * @param config the breaker's settings (a store uses them for its shared window and timers)
     */
    @Nullable
    SharedState attach(String name, BreakerConfig config);
}
