package io.breaker.spring.store;

import io.breaker.spring.config.PropertyValues;
import org.jspecify.annotations.Nullable;

/**
 * What a shared breaker does while its store (Redis, the DynamoDB table) cannot be reached
 * ({@code breakers.store.failure-mode}).
 * Settings keep only {@link #canonical()} values: code that reads a store's failure mode sees
 * {@link #PROTECT_LOCALLY} or {@link #REJECT}, never a deprecated alias.
 */
public enum StoreFailureMode {

    /**
     * Keep serving: each instance acts alone, protected by its own in-memory breaker (its local window
     * trips it, its own probes close it) until the store answers again. The default.
     */
    PROTECT_LOCALLY,

    /**
     * Stop calling: the breaker reads OPEN on every instance and rejects every call until the store
     * answers again (for a dependency that must not be called without the fleet's verdict).
     */
    REJECT,

    /**
     * The old name of {@link #PROTECT_LOCALLY} (the circuit was "fail open").
     *
     * @deprecated write {@code protect-locally}: {@code open} read as if breakers opened
     */
    @Deprecated(since = "0.1.0")
    OPEN,

    /**
     * The old name of {@link #REJECT} (the circuit was "fail closed").
     *
     * @deprecated write {@code reject}: {@code closed} read as if breakers let calls through, the opposite
     */
    @Deprecated(since = "0.1.0")
    CLOSED;

    /** This mode under its current name: {@link #PROTECT_LOCALLY} for {@code OPEN}, {@link #REJECT} for {@code CLOSED}. */
    public StoreFailureMode canonical() {
        return switch (this) {
            case OPEN -> PROTECT_LOCALLY;
            case CLOSED -> REJECT;
            default -> this;
        };
    }

    /** Whether this is an old name kept for compatibility. */
    public boolean isDeprecatedAlias() {
        return canonical() != this;
    }

    /**
     * What to log when {@code property} was given this value: the value to write instead, or
     * {@code null} when this is not an old name.
     */
    public @Nullable String deprecationNotice(String property) {
        return isDeprecatedAlias()
                ? property + "=" + this + " is deprecated: write " + property + "=" + canonical()
                        + " instead (same behaviour)"
                : null;
    }

    /** The value as written in {@code breakers.store.failure-mode}: {@code protect-locally}, {@code reject}. */
    @Override
    public String toString() {
        return PropertyValues.of(this);
    }
}
