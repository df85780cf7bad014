package io.breaker.redis;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Values written the way a user writes them in {@code application.yml}, so that an error message or a
 * log line can be copied back into the configuration: {@code protect-locally}, {@code 50ms}, {@code 7d}.
 */
final class PropertyValues {

    /** Units Spring Boot reads in a duration, largest first, with their length in nanoseconds. */
    private static final String[] UNITS = {"d", "h", "m", "s", "ms", "us", "ns"};
    private static final long[] NANOS = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L,
            1_000_000_000L, 1_000_000L, 1_000L, 1L};

    private PropertyValues() {
    }

    /** An enum constant as written in a property: {@code PROTECT_LOCALLY} is {@code protect-locally}. */
    static String of(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A duration in the largest unit that expresses it exactly: {@code 90s}, {@code 2m}, {@code 500us}. */
    static String of(Duration value) {
        if (value == null) {
            return "";
        }
        if (value.isZero()) {
            return "0ms";
        }
        long total;
        try {
            total = value.toNanos();
        } catch (ArithmeticException beyondNanos) {
            return value.toString(); // over 292 years: ISO-8601, which Spring Boot reads too
        }
        for (int i = 0; i < UNITS.length; i++) {
            if (total % NANOS[i] == 0) {
                return total / NANOS[i] + UNITS[i];
            }
        }
        throw new AssertionError("every duration is a whole number of nanoseconds");
    }

    /**
     * The values an enum property accepts, as written in a property and separated by commas: its
     * constants, except those marked {@link Deprecated} (still accepted, but not to be suggested).
     */
    static String allowed(Class<?> enumType) {
        return Arrays.stream(enumType.getEnumConstants())
                .map(constant -> (Enum<?>) constant)
                .filter(constant -> !deprecated(enumType, constant))
                .map(PropertyValues::of)
                .collect(Collectors.joining(", "));
    }

    private static boolean deprecated(Class<?> enumType, Enum<?> constant) {
        try {
            return enumType.getField(constant.name()).isAnnotationPresent(Deprecated.class);
        } catch (NoSuchFieldException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
