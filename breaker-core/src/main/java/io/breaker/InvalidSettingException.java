package io.breaker;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * A breaker setting was given a value it does not allow. Carries the {@link Setting}, the value and
 * what is allowed, so that an integration can report it in its own terms (a property path, say)
 * without parsing the message.
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient Setting<?> setting;
    private final transient @Nullable Object value;
    private final String allowed;

    /**
     * @param setting the setting
     * @param value   the rejected value (may be {@code null})
     * @param allowed what is allowed, as a phrase that follows "must be"; more specific than
     *                {@link Setting#allowed()} where other settings narrow it
     */
    public InvalidSettingException(Setting<?> setting, @Nullable Object value, String allowed) {
        super(setting.name() + " must be " + allowed + ", was " + value);
        this.setting = Objects.requireNonNull(setting);
        this.value = value;
        this.allowed = Objects.requireNonNull(allowed);
    }

    /** The setting whose value was rejected. */
    public Setting<?> getSetting() {
        return setting;
    }

    /** The rejected value, or {@code null}. */
    public @Nullable Object getValue() {
        return value;
    }

    /** What the setting allows here. */
    public String getAllowed() {
        return allowed;
    }
}
