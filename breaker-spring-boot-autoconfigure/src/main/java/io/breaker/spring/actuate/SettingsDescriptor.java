package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import java.util.Map;

/**
 * One breaker's settings, each with where its value came from: the body of
 * {@code GET /actuator/breakers/{name}/config}, and of the answers to a change.
 *
 * @param name         the breaker's name
 * @param version      raised by every change made at runtime (0: none since start-up); for a breaker
 *                     shared through a store, the fleet's version (a change that stayed on this
 *                     instance takes none)
 * @param shared       whether the breaker's runtime settings are shared with the other instances
 * @param changed      for the answer to a change: whether it changed this instance's settings
 *                     ({@code false}: they already were so); {@code null} otherwise
 * @param fleetChanged for the answer to a change of a shared breaker: {@code true} when the store took
 *                     it (then every instance applies it within one cache period), {@code false} when
 *                     it changed nothing in the fleet's settings or the store could not be reached
 *                     (then only this instance changed), {@code "unknown"} when the store did not
 *                     answer in time; {@code null} otherwise
 * @param principal    for the answer to a change: who made it; {@code null} otherwise
 * @param settings     every setting by its YAML name, in the order of the documentation
 */
public record SettingsDescriptor(
        String name,
        long version,
        boolean shared,
        Boolean changed,
        Object fleetChanged,
        String principal,
        Map<String, SettingDescriptor> settings)
        implements OperationResponseBody {

    /** Where a value came from. */
    public enum Source {
        /** The setting's own default: nothing set it. */
        DEFAULT,
        /** {@code breakers.instances.<name>.*} or {@code breakers.defaults.*} (YAML, properties, environment). */
        YAML,
        /** A {@code BreakerConfigCustomizer} or other code. */
        CODE,
        /** Changed at runtime through the endpoint (on this instance or, when shared, on another). */
        RUNTIME
    }

    /**
     * @param value      the value in effect ({@code Duration}s as ISO-8601, exceptions as class names)
     * @param source     where it came from
     * @param configured the value without runtime changes (what {@code DELETE} returns to)
     */
    public record SettingDescriptor(
            @Nullable Object value, Source source, @Nullable Object configured) {}
}
