package io.breaker.spring.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.Map;

/**
 * One change of a breaker's settings at runtime, as the {@code breakers} endpoint shows it.
 *
 * @param at        when it was applied on this instance
 * @param principal who made it ({@code null} when the request was not authenticated)
 * @param settings  each property changed (YAML name) with its new value as written, or {@code null} for a
 *                  property returned to its configured value
 */
public record SettingsChangeDescriptor(
        Instant at,
        @Nullable String principal,
        // The actuator's mapper leaves nulls out; here a null says "returned to its configured value".
        @JsonInclude(content = JsonInclude.Include.ALWAYS) Map<String, @Nullable Object> settings) {}
