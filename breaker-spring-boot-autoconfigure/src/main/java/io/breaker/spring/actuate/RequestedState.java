package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.Optional;

/** What an operator may ask of a breaker through {@code POST /actuator/breakers/{name}}. */
public enum RequestedState {

    /** Force it open: every call is rejected until {@link #AUTO}. */
    OPEN,

    /** Force it closed: every call passes and is recorded, and it never trips until {@link #AUTO}. */
    CLOSED,

    /** Release it to automatic operation: CLOSED with a fresh window. */
    AUTO;

    /** Parses a requested state, ignoring case and surrounding blanks; empty if it names none. */
    public static Optional<RequestedState> parse(@Nullable String value) {
        if (value == null) {
            return Optional.empty();
        }
        String name = value.trim().toUpperCase(Locale.ROOT);
        for (RequestedState state : values()) {
            if (state.name().equals(name)) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }
}
