package io.breaker.spring.config;

import io.breaker.BreakerConfig;
import io.breaker.Setting;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The breaker settings one section of configuration sets ({@code breakers.defaults}, or one
 * {@code breakers.instances.<name>}), each tied to its definition in {@link BreakerConfig#settings()}
 * by one type-checked line, in the manner of Spring Boot's {@code PropertyMapper}:
 *
 * <pre>{@code
 * MappedSettings.map(map -> {
 *     map.from(settings::getFailureRateThreshold).to(BreakerConfig.FAILURE_RATE_THRESHOLD);
 *     map.fromClassNames(settings::getRecordExceptions).to(BreakerConfig.RECORD_EXCEPTIONS);
 *     // and a line for every other setting
 * });
 * }</pre>
 *
 * A line whose getter returns another type than its setting takes does not compile, an IDE finds the
 * line as the getter's caller, and {@link #map} fails when a setting has no line or two. A getter
 * that returns {@code null} (the property is not set) maps to nothing. The setting itself holds the
 * builder method its value goes to. Used at start-up and when the endpoint describes or changes a
 * breaker, never on the call path.
 */
public final class MappedSettings {

    private final Map<Setting<?>, Line<?>> lines;

    private MappedSettings(Map<Setting<?>, Line<?>> lines) {
        this.lines = lines;
    }

    /**
     * The settings {@code lines} map.
     *
     * @throws IllegalStateException when a setting of {@link BreakerConfig#settings()} has no line, or two
     */
    public static MappedSettings map(Consumer<Mapper> lines) {
        Mapper mapper = new Mapper();
        lines.accept(mapper);
        for (Setting<?> setting : BreakerConfig.settings()) {
            if (!mapper.lines.containsKey(setting)) {
                throw new IllegalStateException("no line maps a property onto the setting " + setting.name());
            }
        }
        return new MappedSettings(mapper.lines);
    }

    /** Whether the section sets {@code setting}. */
    public boolean sets(Setting<?> setting) {
        return written(setting) != null;
    }

    /** The value as the configuration holds it (class names for a list of exceptions), or {@code null} when unset. */
    public @Nullable Object written(Setting<?> setting) {
        Line<?> line = lines.get(setting);
        return line == null ? null : line.written();
    }

    /**
     * The value as {@code setting} takes it, or {@code null} when unset. Class names are loaded here,
     * with {@code classLoader}; one that names no exception class is reported as an element of
     * {@code property}, as {@link ExceptionClasses#load} does.
     */
    public <T extends @Nullable Object> @Nullable T value(
            Setting<T> setting, String property, ClassLoader classLoader) {
        @SuppressWarnings("unchecked") // Source.to stores each line under the setting whose type it was checked against
        Line<T> line = (Line<T>) lines.get(setting);
        return line == null || line.written() == null ? null : line.loader().load(setting, property, classLoader);
    }

    /** Takes one line per setting: {@code map.from(getter).to(setting)}. */
    public static final class Mapper {

        private final Map<Setting<?>, Line<?>> lines = new LinkedHashMap<>();

        private Mapper() {}

        /** A getter whose value the setting takes as it is. */
        public <T extends @Nullable Object> Source<T> from(Supplier<? extends @Nullable T> getter) {
            @Nullable T value = getter.get();
            return new Source<>(value, (setting, property, classLoader) -> value);
        }

        /**
         * A getter of a duration as written, or {@code none} ({@link DurationOrNone}); the setting takes the
         * duration, or {@code null} for {@code none}: a section that says {@code none} sets the setting, off.
         */
        public Source<@Nullable Duration> fromDurationOrNone(Supplier<? extends @Nullable Object> getter) {
            @Nullable Object written = getter.get();
            return new Source<>(
                    written, (setting, property, classLoader) -> DurationOrNone.value(setting, property, written));
        }

        /** A getter of exception class names; the setting takes the classes ({@link ExceptionClasses#load}). */
        public Source<List<Class<? extends Throwable>>> fromClassNames(
                Supplier<? extends @Nullable List<String>> getter) {
            @Nullable List<String> names = getter.get();
            return new Source<>(
                    names, (setting, property, classLoader) -> ExceptionClasses.load(property, names, classLoader));
        }

        /** A getter of one exception class name; the setting takes the class ({@link ExceptionClasses#loadOne}). */
        public Source<Class<? extends Throwable>> fromClassName(Supplier<? extends @Nullable String> getter) {
            @Nullable String name = getter.get();
            return new Source<>(
                    name, (setting, property, classLoader) -> ExceptionClasses.loadOne(property, name, classLoader));
        }

        /** The value of one getter, on its way to the setting that takes it. */
        public final class Source<T extends @Nullable Object> {

            private final @Nullable Object written;
            private final Loader<T> loader;

            private Source(@Nullable Object written, Loader<T> loader) {
                this.written = written;
                this.loader = loader;
            }

            /** Maps the value onto {@code setting}, which must take this source's type. */
            public void to(Setting<T> setting) {
                if (lines.putIfAbsent(setting, new Line<>(written, loader)) != null) {
                    throw new IllegalStateException("two lines map properties onto the setting " + setting.name());
                }
            }
        }
    }

    /** Turns a written value into the one its setting takes, naming {@code property} if it cannot. */
    @FunctionalInterface
    private interface Loader<T extends @Nullable Object> {

        T load(Setting<?> setting, String property, ClassLoader classLoader);
    }

    private record Line<T extends @Nullable Object>(
            @Nullable Object written, Loader<T> loader) {}
}
