package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.InvalidSettingException;
import io.breaker.Setting;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.spring.BreakerNames;
import io.breaker.spring.actuate.SettingsDescriptor.SettingDescriptor;
import io.breaker.spring.actuate.SettingsDescriptor.Source;
import io.breaker.spring.config.ConfiguredSettings;
import io.breaker.spring.config.ExceptionClasses;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import io.breaker.spring.config.PropertyValues;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionService;
import org.springframework.lang.Nullable;

import java.time.Clock;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Settings changed while the application runs, without a web stack: {@code GET}, {@code POST} and
 * {@code DELETE /actuator/breakers/{name}/config} call this. A change names settings by their YAML
 * names and writes values as YAML does ({@code "wait-duration-in-open-state": "10s"}); it is checked
 * exactly as at start-up (the same messages), applied to the running breaker
 * ({@link CircuitBreaker#reconfigure}), logged at WARN on {@value BreakerOperations#LOGGER_NAME} with
 * the principal, and listed among the breaker's transitions. A breaker shared through a store
 * ({@link SharedSettings}) publishes the change to the fleet; the other instances apply it when their
 * store next refreshes the breaker. Nothing here is on the call path.
 */
public final class RuntimeSettings {

    private static final Log LOGGER = LogFactory.getLog(BreakerOperations.LOGGER_NAME);

    private final BreakerRegistry registry;
    private final ConfiguredSettings yaml;
    private final BreakerTransitionHistory history;
    private final Clock wallClock;
    private final SharedSettings sharedSettings;
    private final ClassLoader classLoader;
    private final ConversionService conversion = ApplicationConversionService.getSharedInstance();
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /**
     * @param yaml           which settings the configuration sets (to tell YAML from defaults); may be {@code null}
     * @param sharedSettings where to share changes with the fleet, or {@code null}
     */
    public RuntimeSettings(
            BreakerRegistry registry,
            @Nullable ConfiguredSettings yaml,
            BreakerTransitionHistory history,
            Clock wallClock,
            @Nullable SharedSettings sharedSettings,
            ClassLoader classLoader) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.yaml = yaml;
        this.history = Objects.requireNonNull(history, "history");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.sharedSettings = sharedSettings;
        this.classLoader = classLoader;
        if (sharedSettings != null) {
            sharedSettings.onChange(this::applyFromFleet);
        }
    }

    /** The named breaker's settings with their sources, or empty for an unknown name. */
    public Optional<SettingsDescriptor> describe(String name) {
        return registry.find(name).map(breaker -> describe(breaker, entry(breaker), null, null));
    }

    /**
     * Changes some settings of the named breaker; a value {@code null} returns that setting to its
     * configured value. Nothing changes unless every value is valid.
     */
    public Result change(String name, @Nullable Map<String, Object> body, @Nullable String principal) {
        Optional<CircuitBreaker> found = registry.find(name);
        if (found.isEmpty()) {
            return new Result.Refused(ErrorDescriptor.notFound(name));
        }
        if (body == null || body.isEmpty()) {
            return new Result.Refused(ErrorDescriptor.badRequest("the body names the settings to change with their"
                    + " YAML names, as in {\"failure-rate-threshold\": 30, \"wait-duration-in-open-state\": \"10s\"};"
                    + " settings that can change: " + String.join(", ", changeable())));
        }
        CircuitBreaker breaker = found.get();
        synchronized (this) {
            Entry entry = entry(breaker);
            Map<String, String> written = new LinkedHashMap<>(entry.written);
            Map<String, Object> changes = new LinkedHashMap<>();
            try {
                for (Map.Entry<String, Object> change : body.entrySet()) {
                    Setting<?> setting = setting(name, change.getKey());
                    Object value = change.getValue();
                    if (value == null) {
                        written.remove(setting.propertyName());
                        changes.put(setting.propertyName(), null);
                    } else {
                        Object parsed = parse(name, setting, value);
                        String asWritten = PropertyValues.of(parsed);
                        written.put(setting.propertyName(), asWritten);
                        changes.put(setting.propertyName(), asWritten);
                    }
                }
                BreakerConfig config = build(name, entry.configured, written);
                String refusal = shares(breaker) ? sharedSettings.refusal(name, config) : null;
                if (refusal != null) {
                    return new Result.Refused(ErrorDescriptor.badRequest(refusal));
                }
                return new Result.Applied(apply(breaker, entry, config, written, changes, principal));
            } catch (InvalidBreakerPropertyException invalid) {
                return new Result.Refused(ErrorDescriptor.badRequest(invalid.getMessage()));
            }
        }
    }

    /** Returns the named breaker to its configured settings (YAML, defaults and code). */
    public Result reset(String name, @Nullable String principal) {
        Optional<CircuitBreaker> found = registry.find(name);
        if (found.isEmpty()) {
            return new Result.Refused(ErrorDescriptor.notFound(name));
        }
        CircuitBreaker breaker = found.get();
        synchronized (this) {
            Entry entry = entry(breaker);
            Map<String, Object> changes = new LinkedHashMap<>();
            entry.written.keySet().forEach(property -> changes.put(property, null));
            return new Result.Applied(apply(breaker, entry, entry.configured, Map.of(), changes, principal));
        }
    }

    private SettingsDescriptor apply(
            CircuitBreaker breaker,
            Entry entry,
            BreakerConfig config,
            Map<String, String> written,
            Map<String, Object> changes,
            String principal) {
        Boolean fleetChanged = null;
        long version = entry.version + 1;
        if (shares(breaker)) {
            long published = sharedSettings.publish(
                    breaker.getName(), Collections.unmodifiableMap(new LinkedHashMap<>(written)), principal);
            fleetChanged = published >= 0;
            version = Math.max(version, published);
        }
        breaker.reconfigure(config);
        entry.written = Collections.unmodifiableMap(new LinkedHashMap<>(written));
        entry.version = version;
        LOGGER.warn("breaker=" + breaker.getName() + " settings=" + describeChanges(changes) + " version=" + version
                + " principal=" + (principal == null ? "none" : principal)
                + " fleetChanged=" + (fleetChanged == null ? "none" : fleetChanged));
        record(breaker, changes, principal);
        return describe(breaker, entry, fleetChanged, principal);
    }

    /** Settings another instance published (see {@link SharedSettings}); older versions are skipped. */
    void applyFromFleet(String name, long version, Map<String, String> overrides, String principal) {
        Optional<CircuitBreaker> found = registry.find(name);
        if (found.isEmpty()) {
            return;
        }
        CircuitBreaker breaker = found.get();
        synchronized (this) {
            Entry entry = entry(breaker);
            if (version <= entry.version) {
                return;
            }
            Map<String, Object> changes = new LinkedHashMap<>();
            entry.written.keySet().forEach(property -> changes.put(property, null));
            changes.putAll(overrides);
            try {
                Map<String, String> written = new LinkedHashMap<>();
                for (Map.Entry<String, String> override : overrides.entrySet()) {
                    Setting<?> setting = setting(name, override.getKey());
                    written.put(setting.propertyName(), override.getValue());
                }
                breaker.reconfigure(build(name, entry.configured, written));
                entry.written = Collections.unmodifiableMap(new LinkedHashMap<>(written));
                entry.version = version;
                LOGGER.info("breaker=" + name + " settings=" + describeChanges(changes) + " version=" + version
                        + " principal=" + (principal == null ? "none" : principal) + " from=fleet");
                record(breaker, changes, principal);
            } catch (InvalidBreakerPropertyException | IllegalArgumentException invalid) {
                entry.version = version; // not asked again; the next valid version is applied
                LOGGER.warn("breaker=" + name + " settings version " + version + " published by another instance cannot"
                        + " apply here, the breaker keeps its settings: " + invalid.getMessage());
            }
        }
    }

    private boolean shares(CircuitBreaker breaker) {
        return sharedSettings != null && breaker.isShared();
    }

    private void record(CircuitBreaker breaker, Map<String, Object> changes, String principal) {
        State state = breaker.getState();
        history.record(
                breaker.getName(),
                new TransitionDescriptor(
                        state,
                        state,
                        TransitionCause.OPERATOR,
                        wallClock.instant(),
                        principal,
                        changes.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(changes))));
    }

    private static String describeChanges(Map<String, Object> changes) {
        if (changes.isEmpty()) {
            return "{}";
        }
        return changes.entrySet().stream()
                .map(change -> change.getKey() + "=" + (change.getValue() == null ? "configured" : change.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private Entry entry(CircuitBreaker breaker) {
        return entries.computeIfAbsent(breaker.getName(), ignored -> new Entry(breaker.getConfig()));
    }

    private SettingsDescriptor describe(CircuitBreaker breaker, Entry entry, Boolean fleetChanged, String principal) {
        BreakerConfig current = breaker.getConfig();
        Map<String, SettingDescriptor> settings = new LinkedHashMap<>();
        for (Setting<?> setting : BreakerConfig.settings()) {
            Object configured = shown(setting.get(entry.configured));
            Source source = entry.written.containsKey(setting.propertyName())
                    ? Source.RUNTIME
                    : source(breaker.getName(), setting, entry.configured);
            settings.put(
                    setting.propertyName(), new SettingDescriptor(shown(setting.get(current)), source, configured));
        }
        return new SettingsDescriptor(
                breaker.getName(), entry.version, shares(breaker), fleetChanged, principal, settings);
    }

    private Source source(String name, Setting<?> setting, BreakerConfig configured) {
        if (yaml != null && yaml.sets(name, setting)) {
            return Source.YAML;
        }
        return Objects.equals(setting.get(configured), setting.defaultValue()) ? Source.DEFAULT : Source.CODE;
    }

    private static Object shown(Object value) {
        if (value instanceof List<?> list) {
            return list.stream()
                    .map(element -> element instanceof Class<?> type ? type.getName() : element)
                    .toList();
        }
        return value;
    }

    /** The settings that can change at runtime, by YAML name: all but the sliding-window type. */
    static List<String> changeable() {
        return BreakerConfig.settings().stream()
                .filter(setting -> setting != BreakerConfig.SLIDING_WINDOW_TYPE)
                .map(Setting::propertyName)
                .toList();
    }

    private static String path(String name, String property) {
        return "breakers.instances." + BreakerNames.propertyKey(name) + "." + property;
    }

    private static Setting<?> setting(String name, String property) {
        for (Setting<?> setting : BreakerConfig.settings()) {
            if (setting.propertyName().equals(property)) {
                if (setting == BreakerConfig.SLIDING_WINDOW_TYPE) {
                    throw new InvalidBreakerPropertyException(
                            path(name, property),
                            "",
                            "a running breaker keeps its" + " window type; restart with the new one",
                            "one of " + String.join(", ", changeable()),
                            null);
                }
                return setting;
            }
        }
        throw new InvalidBreakerPropertyException(
                path(name, property), "", "no such setting", "one of " + String.join(", ", changeable()), null);
    }

    private Object parse(String name, Setting<?> setting, Object raw) {
        String path = path(name, setting.propertyName());
        if (setting.type() == List.class) {
            List<?> names = raw instanceof List<?> list
                    ? list
                    : Arrays.asList(String.valueOf(raw).split(","));
            return ExceptionClasses.load(path, names, classLoader);
        }
        String allowed = PropertyValues.inPropertyTerms(setting.allowed());
        if (raw instanceof Map<?, ?>
                || raw instanceof List<?>
                || (setting.type() == Integer.class
                        && raw instanceof Number number
                        && number.doubleValue() != Math.rint(number.doubleValue()))) {
            throw new InvalidBreakerPropertyException(
                    path,
                    String.valueOf(raw),
                    "it is not a " + setting.type().getSimpleName().toLowerCase(Locale.ROOT),
                    allowed,
                    null);
        }
        Object value;
        try {
            value = conversion.convert(raw, setting.type());
        } catch (ConversionException unreadable) {
            throw new InvalidBreakerPropertyException(
                    path,
                    String.valueOf(raw),
                    "it cannot be read as a " + setting.type().getSimpleName().toLowerCase(Locale.ROOT),
                    allowed,
                    unreadable);
        }
        try {
            setting.applyTo(BreakerConfig.builder(), value); // the setting's own check, alone
        } catch (InvalidSettingException invalid) {
            throw InvalidBreakerPropertyException.of(path, invalid);
        }
        return value;
    }

    /** The configured settings with the written ones applied; each value checked as at start-up. */
    private BreakerConfig build(String name, BreakerConfig configured, Map<String, String> written) {
        BreakerConfig.Builder builder = configured.toBuilder();
        for (Map.Entry<String, String> entry : written.entrySet()) {
            Setting<?> setting = setting(name, entry.getKey());
            setting.applyTo(builder, parse(name, setting, entry.getValue()));
        }
        try {
            return builder.build();
        } catch (InvalidSettingException invalid) {
            throw InvalidBreakerPropertyException.of(
                    path(name, invalid.getSetting().propertyName()), invalid);
        }
    }

    /** One breaker's runtime state: its configured settings, what was changed, and the version. */
    private static final class Entry {

        final BreakerConfig configured;
        Map<String, String> written = Map.of();
        long version;

        Entry(BreakerConfig configured) {
            this.configured = configured;
        }
    }

    /** The outcome of a change. */
    public sealed interface Result {

        /** The change was valid and applied. */
        record Applied(SettingsDescriptor settings) implements Result {}

        /** Refused, nothing changed: an unknown breaker (404) or a bad setting or value (400). */
        record Refused(ErrorDescriptor error) implements Result {}
    }
}
