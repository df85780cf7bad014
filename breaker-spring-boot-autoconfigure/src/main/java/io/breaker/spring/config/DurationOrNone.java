package io.breaker.spring.config;

import io.breaker.Setting;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionException;

import java.time.Duration;
import java.util.Locale;

/**
 * A duration property whose setting can be off ({@code slow-call-duration-threshold},
 * {@code max-wait-duration-in-open-state}, {@code call-timeout}, a fault's {@code latency}): it holds a
 * duration, written as every duration property is ({@code 800ms}, {@code PT2S}, a number of
 * milliseconds), or {@code none}, which turns the setting off for the breakers that read it, as
 * {@code none} does at runtime.
 *
 * <p>Spring Boot cannot bind {@code none} to a {@code Duration}, so such a property is bound as written
 * and read here: a section that says {@code none} sets the setting (to off), which an instance's
 * {@code none} needs to win over a default's duration, and a value that is neither is refused with
 * its property when the breakers are built.
 */
public final class DurationOrNone {

    /** The value that turns the setting off. */
    public static final String NONE = "none";

    private static final String NOT_A_DURATION = "it is not a duration (or one too long to hold)";

    private DurationOrNone() {}

    /** What a section holds for {@code value}: {@code null} for nothing (no value, or a blank text), else the value. */
    public static @Nullable Object written(@Nullable Object value) {
        return value instanceof CharSequence text && text.toString().isBlank() ? null : value;
    }

    /** Whether {@code written} is {@code none} (in any case, blanks around it left out). */
    public static boolean isNone(@Nullable Object written) {
        return written instanceof CharSequence text
                && text.toString().trim().toLowerCase(Locale.ROOT).equals(NONE);
    }

    /**
     * The duration {@code written} holds; {@code null} when it holds none, is unset, or is no duration
     * (which {@link #value} reports).
     */
    public static @Nullable Duration lenient(@Nullable Object written) {
        if (written == null || isNone(written)) {
            return null;
        }
        try {
            return ApplicationConversionService.getSharedInstance().convert(written, Duration.class);
        } catch (ConversionException notADuration) {
            return null;
        }
    }

    /**
     * The value {@code setting} takes from {@code written}: its duration, or {@code null} for
     * {@code none}.
     *
     * @throws InvalidBreakerPropertyException naming {@code property} and what {@code setting} allows
     *                                         when {@code written} is neither
     */
    public static @Nullable Duration value(Setting<?> setting, String property, Object written) {
        if (isNone(written)) {
            return null;
        }
        try {
            return ApplicationConversionService.getSharedInstance().convert(written, Duration.class);
        } catch (ConversionException notADuration) {
            throw new InvalidBreakerPropertyException(
                    property,
                    PropertyValues.of(written),
                    NOT_A_DURATION,
                    PropertyValues.inPropertyTerms(setting.allowed()) + ", such as 800ms or 30s",
                    notADuration);
        }
    }
}
