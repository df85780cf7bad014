package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import org.jspecify.annotations.Nullable;

import java.util.Map;

/**
 * Where settings changed at runtime are shared with the other instances of the application (for
 * example breaker-redis, which keeps them next to the breaker's shared state). A store module
 * registers one bean of this type; without one, a change at runtime stays on the instance that
 * received it.
 */
public interface SharedSettings {

    /**
     * Publishes the runtime settings of a breaker shared with the fleet, replacing what was published
     * before ({@code overrides} empty: back to the configured values).
     *
     * @param breaker   the breaker's name
     * @param overrides property name (as in YAML) to value as written ({@code 10s})
     * @param principal who made the change, or {@code null}
     * @return the fleet's new version of these settings, or {@code -1} when the store could not be
     *         reached (only this instance changes then)
     */
    long publish(String breaker, Map<String, String> overrides, @Nullable String principal);

    /**
     * Why the store cannot take these settings for the breaker (for example: its keys would expire
     * while the breaker waits), or {@code null} when it can. Asked before anything changes.
     */
    default @Nullable String refusal(String breaker, BreakerConfig config) {
        return null;
    }

    /**
     * Registers the one consumer of the changes other instances published: the store calls it (never
     * on a call path) when it sees a newer version than the one it reported last for that breaker.
     */
    void onChange(Listener listener);

    /** Receives settings another instance published. */
    @FunctionalInterface
    interface Listener {

        /**
         * @param breaker   the breaker's name
         * @param version   the fleet's version of its settings
         * @param overrides property name to value as written; empty: back to the configured values
         * @param principal who made the change, or {@code null}
         */
        void changed(String breaker, long version, Map<String, String> overrides, @Nullable String principal);
    }
}
