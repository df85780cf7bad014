package io.breaker;

import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One setting of a breaker, defined once: its name, the type of its value, its default, the values
 * it allows and what it means. {@link BreakerConfig#settings()} lists them all; the builder checks
 * every value against its setting, and integrations (the Spring Boot starter's properties, their
 * inheritance, their error messages, IDE metadata and documentation) derive from these definitions
 * instead of restating them.
 *
 * @param <T> the type of the value, as {@link BreakerConfig.Builder} takes it; {@code @Nullable} for a
 *            setting that may be unset
 */
public final class Setting<T extends @Nullable Object> {

    private final String name;
    private final Class<?> type;
    private final T defaultValue;
    private final String allowed;
    private final String description;
    private final Predicate<T> valid;
    private final Function<BreakerConfig, T> getter;
    private final BiConsumer<BreakerConfig.Builder, T> setter;

    Setting(
            String name,
            Class<?> type,
            T defaultValue,
            String allowed,
            String description,
            Predicate<T> valid,
            Function<BreakerConfig, T> getter,
            BiConsumer<BreakerConfig.Builder, T> setter) {
        this.name = Objects.requireNonNull(name);
        this.type = Objects.requireNonNull(type);
        this.defaultValue = defaultValue;
        this.allowed = Objects.requireNonNull(allowed);
        this.description = Objects.requireNonNull(description);
        this.valid = Objects.requireNonNull(valid);
        this.getter = Objects.requireNonNull(getter);
        this.setter = Objects.requireNonNull(setter);
    }

    /** The name in Java, as the builder method and the getter use it: {@code failureRateThreshold}. */
    public String name() {
        return name;
    }

    /** The name as a property, lower case with dashes: {@code failure-rate-threshold}. */
    public String propertyName() {
        StringBuilder dashed = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                dashed.append('-').append(Character.toLowerCase(c));
            } else {
                dashed.append(c);
            }
        }
        return dashed.toString().toLowerCase(Locale.ROOT);
    }

    /**
     * The type of the value: {@code Integer}, {@code Float}, {@code java.time.Duration},
     * {@link SlidingWindowType}, or {@code List} (of exception classes).
     */
    public Class<?> type() {
        return type;
    }

    /** The value a breaker has when nothing sets it; {@code null} where "unset" has a meaning of its own. */
    public T defaultValue() {
        return defaultValue;
    }

    /** What the setting accepts, as a phrase that follows "must be": {@code a number in (0, 100]}. */
    public String allowed() {
        return allowed;
    }

    /** What the setting means, in one sentence. */
    public String description() {
        return description;
    }

    /** This setting's value in {@code config}. */
    public T get(BreakerConfig config) {
        return getter.apply(config);
    }

    /**
     * Sets this setting on {@code builder}, which checks the value as its own method does.
     *
     * @throws InvalidSettingException when the value is not one this setting allows (also when it is
     *                                 not of the setting's type)
     */
    @SuppressWarnings("unchecked")
    public BreakerConfig.Builder applyTo(BreakerConfig.Builder builder, @Nullable Object value) {
        if (value != null && !type.isInstance(value)) {
            throw new InvalidSettingException(this, value, allowed);
        }
        setter.accept(builder, check((T) value)); // checked first: a null must not reach an unboxing setter

        return builder;
    }

    /** The value, once checked. */
    T check(T value) {
        boolean ok;
        try {
            ok = valid.test(value);
        } catch (RuntimeException notEvenComparable) {
            ok = false;
        }
        if (!ok) {
            throw new InvalidSettingException(this, value, allowed);
        }
        return value;
    }

    @Override
    public String toString() {
        return name;
    }
}
