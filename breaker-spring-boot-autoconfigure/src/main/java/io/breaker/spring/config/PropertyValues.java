package io.breaker.spring.config;

import io.breaker.BreakerConfig;
import io.breaker.Setting;
import io.breaker.SlidingWindowType;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Values and names written the way a user writes them, so that an error message or a log line can be
 * copied back into the configuration: {@code protect-locally}, {@code 50ms}, {@code 7d}, and the
 * environment variable {@code BREAKERS_DEFAULTS_FAILURERATETHRESHOLD}. Shared by every breaker module.
 */
public final class PropertyValues {

    private static final String FAULT = "fault-";

    /** Units Spring Boot reads in a duration, largest first, with their length in nanoseconds. */
    private static final String[] UNITS = {"d", "h", "m", "s", "ms", "us", "ns"};

    private static final long[] NANOS = {
        86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L
    };

    private PropertyValues() {}

    /** An enum constant as written in a property: {@code PROTECT_LOCALLY} is {@code protect-locally}. */
    public static String of(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A duration in the largest unit that expresses it exactly: {@code 90s}, {@code 2m}, {@code 500us}, {@code 200000d}. */
    public static String of(@Nullable Duration value) {
        if (value == null) {
            return "";
        }
        if (value.isZero()) {
            return "0ms";
        }
        if (value.getNano() == 0) { // whole seconds: exact however long, without nanosecond arithmetic
            long seconds = value.getSeconds();
            for (int i = 0; i < 4; i++) {
                long unitSeconds = NANOS[i] / 1_000_000_000L;
                if (seconds % unitSeconds == 0) {
                    return seconds / unitSeconds + UNITS[i];
                }
            }
        }
        long total;
        try {
            total = value.toNanos();
        } catch (ArithmeticException beyondNanos) {
            return value.toString(); // over 292 years and not whole seconds: ISO-8601, which Spring Boot reads too
        }
        for (int i = 0; i < UNITS.length; i++) {
            if (total % NANOS[i] == 0) {
                return total / NANOS[i] + UNITS[i];
            }
        }
        throw new AssertionError("every duration is a whole number of nanoseconds");
    }

    /** Any value as written in a property: enums and durations as above, numbers without a useless {@code .0}. */
    public static String of(@Nullable Object value) {
        if (value instanceof Enum<?> constant) {
            return of(constant);
        }
        if (value instanceof Duration duration) {
            return of(duration);
        }
        if ((value instanceof Float || value instanceof Double) && Double.isFinite(((Number) value).doubleValue())) {
            return new BigDecimal(value.toString()).stripTrailingZeros().toPlainString();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(PropertyValues::of).collect(Collectors.joining(","));
        }
        if (value instanceof Class<?> type) {
            return type.getName();
        }
        return value == null ? "" : String.valueOf(value);
    }

    /**
     * The core's phrase as a property file says it: settings and window types named as properties are
     * ({@code at most sliding-window-size (20) for a count-based window}).
     */
    public static String inPropertyTerms(String allowed) {
        String result = allowed;
        for (Setting<?> setting : BreakerConfig.settings()) {
            result = result.replace(setting.name(), setting.propertyName());
        }
        for (SlidingWindowType type : SlidingWindowType.values()) {
            result = result.replace(type.name(), of(type));
        }
        return result;
    }

    /**
     * The values an enum property accepts, as written in a property and separated by commas: its
     * constants, except those marked {@link Deprecated} (still accepted, but not to be suggested).
     */
    public static String allowed(Class<?> enumType) {
        return Arrays.stream(enumType.getEnumConstants())
                .map(constant -> (Enum<?>) constant)
                .filter(constant -> !deprecated(enumType, constant))
                .map(PropertyValues::of)
                .collect(Collectors.joining(", "));
    }

    /**
     * Where one breaker's value of a setting is written, given the breaker's key ({@code wholesaler}, or
     * {@code [a.b]}) and the setting's property name: {@code breakers.faults.<key>.failure-rate} for a
     * {@code fault-*} setting, {@code breakers.instances.<key>.<setting>} for the others.
     */
    public static String breakerProperty(String breakerKey, String settingProperty) {
        return settingProperty.startsWith(FAULT)
                ? "breakers.faults." + breakerKey + "." + settingProperty.substring(FAULT.length())
                : "breakers.instances." + breakerKey + "." + settingProperty;
    }

    /** A Java name as a property name: {@code failureRateThreshold} is {@code failure-rate-threshold}. */
    public static String dashed(String javaName) {
        StringBuilder dashed = new StringBuilder(javaName.length() + 4);
        for (char c : javaName.toCharArray()) {
            if (Character.isUpperCase(c)) {
                dashed.append('-').append(Character.toLowerCase(c));
            } else {
                dashed.append(c);
            }
        }
        return dashed.toString();
    }

    /**
     * The environment variable that sets a property: upper case, {@code _} between the parts, dashes
     * dropped, indexes as parts of their own ({@code breakers.defaults.record-exceptions[0]} is
     * {@code BREAKERS_DEFAULTS_RECORDEXCEPTIONS_0}).
     */
    public static String environmentVariable(String propertyName) {
        ConfigurationPropertyName name = ConfigurationPropertyName.adapt(propertyName, '.');
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            parts.add(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM).toUpperCase(Locale.ROOT));
        }
        return String.join("_", parts);
    }

    private static boolean deprecated(Class<?> enumType, Enum<?> constant) {
        try {
            return enumType.getField(constant.name()).isAnnotationPresent(Deprecated.class);
        } catch (NoSuchFieldException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
