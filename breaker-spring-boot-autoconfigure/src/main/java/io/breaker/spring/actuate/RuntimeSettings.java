package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.InvalidSettingException;
import io.breaker.Setting;
import io.breaker.spring.BreakerNames;
import io.breaker.spring.actuate.SettingsDescriptor.SettingDescriptor;
import io.breaker.spring.actuate.SettingsDescriptor.Source;
import io.breaker.spring.config.ConfiguredSettings;
import io.breaker.spring.config.ExceptionClasses;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import io.breaker.spring.config.PropertyValues;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionService;

import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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
 * the principal, and listed among the breaker's transitions; a change that changes nothing is none.
 *
 * <p>For a breaker shared through a store ({@link SharedSettings}) each instance keeps the fleet's
 * settings as it last saw them (epoch, version, overrides) apart from what it applies. A change is
 * made on the fleet's settings first, by compare-and-set: when they changed since this instance saw
 * them, nothing changes, the answer is a conflict with the fleet's settings, and this instance adopts
 * them. When the store cannot be reached or does not answer in time, the change applies to this
 * instance alone and takes no fleet version; the fleet's settings replace it when this instance next
 * reads them. Settings read from the store are checked as a change through the endpoint is, and every
 * text from outside reaches the log escaped ({@link LogText}). Nothing here is on the call path.
 */
public final class RuntimeSettings {

    private static final Log LOGGER = LogFactory.getLog(BreakerOperations.LOGGER_NAME);
    /** Epochs of the fleet's settings an instance remembers having left: a late read of one is not adopted. */
    private static final int LEFT_EPOCHS = 8;

    /** The value that turns off a setting without a default, as the allowed values offer it. */
    private static final String NONE = "none";

    private final BreakerRegistry registry;
    private final @Nullable ConfiguredSettings yaml;
    private final BreakerTransitionHistory history;
    private final Clock wallClock;
    private final @Nullable SharedSettings sharedSettings;
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
            sharedSettings.onChange(this::seen);
        }
    }

    /** The named breaker's settings with their sources, or empty for an unknown name. */
    public Optional<SettingsDescriptor> describe(String name) {
        return registry.find(name).map(breaker -> {
            synchronized (this) {
                return describe(breaker, entry(breaker), null, null, null);
            }
        });
    }

    /**
     * Changes some settings of the named breaker; a value {@code null} returns that setting to its
     * configured value. Nothing changes unless every value is valid, and a change that sets what is
     * already set is no change (no version, no audit line, nothing written to the store).
     */
    public Result change(String name, @Nullable Map<String, @Nullable Object> body, @Nullable String principal) {
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
        Map<String, String> changes = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Object> change : body.entrySet()) {
                Setting<?> setting = known(change.getKey());
                Object value = change.getValue();
                if (setting == null) {
                    return new Result.Refused(SettingKeys.unknown(change.getKey(), value, changeable()));
                }
                String fixed = startUpOnly(setting);
                if (fixed != null) {
                    return new Result.Refused(SettingKeys.kept(path(name, change.getKey()), fixed, changeable()));
                }
                changes.put(setting.propertyName(), value == null ? null : written(parse(name, setting, value)));
            }
        } catch (InvalidBreakerPropertyException invalid) {
            return new Result.Refused(ErrorDescriptor.badRequest(invalid.getMessage()));
        }
        synchronized (this) {
            return commit(breaker, entry(breaker), changes, principal);
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
            Map<String, String> changes = new LinkedHashMap<>();
            entry.applied.keySet().forEach(property -> changes.put(property, null));
            if (shares(breaker)) {
                entry.fleet.overrides().keySet().forEach(property -> changes.put(property, null));
            }
            return commit(breaker, entry, changes, principal);
        }
    }

    /** Checks and makes one change: on this instance alone, or on the fleet's settings first. */
    private Result commit(CircuitBreaker breaker, Entry entry, Map<String, String> changes, String principal) {
        String name = breaker.getName();
        Map<String, String> local = with(entry.applied, changes);
        BreakerConfig localConfig;
        try {
            localConfig = build(name, entry.configured, local);
            if (shares(breaker)) {
                String refusal = sharedSettings.refusal(name, localConfig);
                if (refusal == null) {
                    // What the fleet will have: its settings with this change.
                    refusal = sharedSettings.refusal(
                            name, build(name, entry.configured, with(entry.fleet.overrides(), changes)));
                }
                if (refusal != null) {
                    return new Result.Refused(ErrorDescriptor.badRequest(refusal));
                }
            }
        } catch (InvalidBreakerPropertyException invalid) {
            return new Result.Refused(ErrorDescriptor.badRequest(invalid.getMessage()));
        }
        if (!shares(breaker)) {
            if (local.equals(entry.applied) || sameValues(localConfig, breaker.getConfig())) {
                // Every value asked for is already in force (50 for a configured 50.0, none for a setting
                // left unset): keeping it as an override would take a version and an audit line for nothing.
                return new Result.Applied(describe(breaker, entry, false, null, principal));
            }
            entry.localVersion++;
            applyLocally(breaker, entry, local, localConfig, principal, null);
            return new Result.Applied(describe(breaker, entry, true, null, principal));
        }
        long sentAt = System.nanoTime();
        SharedSettings.Outcome outcome = sharedSettings.change(name, entry.fleet, changes, principal);
        if (outcome instanceof SharedSettings.Outcome.Applied applied) {
            Map<String, String> before = entry.applied;
            entry.fleetRefused = false;
            if (!adopt(breaker, entry, applied.fleet(), principal, null)) {
                return new Result.Applied(describe(breaker, entry, false, FleetChange.CHANGED, principal));
            }
            Map<String, Object> made = changes(before, entry.applied);
            if (made.isEmpty()) {
                // The fleet changed, this instance did not (it had refused the fleet's settings): say what was asked.
                made.putAll(changes);
            }
            audit(name, made, entry.fleet.version(), principal, FleetChange.CHANGED);
            record(breaker, made, principal);
            return new Result.Applied(describe(breaker, entry, true, FleetChange.CHANGED, principal));
        }
        if (outcome instanceof SharedSettings.Outcome.Unchanged unchanged) {
            // Nothing to change in the fleet's settings; if this instance had a change of its own, they win.
            boolean changed = seenLocked(breaker, entry, unchanged.fleet(), sentAt);
            return new Result.Applied(describe(breaker, entry, changed, FleetChange.UNCHANGED, principal));
        }
        if (outcome instanceof SharedSettings.Outcome.Stale stale) {
            seenLocked(breaker, entry, stale.fleet(), sentAt);
            return new Result.Stale(new StaleDescriptor(
                    409,
                    "Conflict",
                    "the fleet's settings of '" + name + "' changed since this instance last read them; nothing"
                            + " changed: 'current' shows the fleet's settings, which this instance applies now;"
                            + " send the change again to make it on them",
                    describe(breaker, entry, null, null, null)));
        }
        FleetChange fleetChanged =
                outcome instanceof SharedSettings.Outcome.Unanswered ? FleetChange.UNKNOWN : FleetChange.UNCHANGED;
        if (local.equals(entry.applied)) {
            return new Result.Applied(describe(breaker, entry, false, fleetChanged, principal));
        }
        entry.localOnly = true; // takes no fleet version: the fleet's settings win when this instance reads them
        entry.localOnlySince = System.nanoTime();
        applyLocally(breaker, entry, local, localConfig, principal, fleetChanged);
        return new Result.Applied(describe(breaker, entry, true, fleetChanged, principal));
    }

    private void applyLocally(
            CircuitBreaker breaker,
            Entry entry,
            Map<String, String> overrides,
            BreakerConfig config,
            String principal,
            FleetChange fleetChanged) {
        Map<String, Object> made = changes(entry.applied, overrides);
        breaker.reconfigure(config);
        entry.applied = overrides;
        audit(breaker.getName(), made, version(breaker, entry), principal, fleetChanged);
        record(breaker, made, principal);
    }

    private static void audit(
            String name, Map<String, Object> changes, long version, String principal, FleetChange fleetChanged) {
        LOGGER.warn("breaker=" + name + " settings=" + describeChanges(changes) + " version=" + version + " principal="
                + LogText.of(principal) + " fleetChanged=" + LogText.of(fleetChanged));
    }

    /**
     * The fleet's settings as the store read them (see {@link SharedSettings.Listener}), on a store
     * thread; {@code readAt} is when (System.nanoTime) the read was sent.
     */
    void seen(String name, SharedSettings.Fleet fleet, long readAt) {
        Optional<CircuitBreaker> found = registry.find(name);
        if (found.isEmpty() || !shares(found.get())) {
            return;
        }
        synchronized (this) {
            CircuitBreaker breaker = found.get();
            Entry entry = entry(breaker);
            if (fleet.isNone() && !entry.fleet.isNone()) {
                if (readAt - entry.fleetSetAt > 0) {
                    lost(breaker, entry);
                }
                return;
            }
            seenLocked(breaker, entry, fleet, readAt);
        }
    }

    /**
     * Adopts the fleet's settings if they are new to this instance: another epoch (one this instance has
     * not left), a newer version of its epoch, or anything else the store holds by a read sent after this
     * instance last took the fleet's settings (the store went back: a failover to a replica that lagged).
     * A change this instance made alone gives way to the fleet's settings read after it. Returns whether
     * this instance's settings changed.
     */
    private boolean seenLocked(CircuitBreaker breaker, Entry entry, SharedSettings.Fleet fleet, long readAt) {
        boolean current = readAt - entry.fleetSetAt > 0;
        boolean newer = fleet.epoch().equals(entry.fleet.epoch())
                ? fleet.version() > entry.fleet.version() || (current && fleet.version() != entry.fleet.version())
                : current || !entry.leftEpochs.contains(fleet.epoch());
        if (newer) {
            return adoptAndLog(breaker, entry, fleet);
        }
        if (entry.localOnly && fleet.sameAs(entry.fleet) && readAt - entry.localOnlySince > 0) {
            LOGGER.warn("breaker=" + breaker.getName() + " settings changed on this instance alone give way to the"
                    + " fleet's settings, version " + fleet.version() + ", now that the store answers");
            return adoptAndLog(breaker, entry, fleet);
        }
        return false;
    }

    private boolean adoptAndLog(CircuitBreaker breaker, Entry entry, SharedSettings.Fleet fleet) {
        Map<String, String> before = entry.applied;
        String principal = fleet.principal();
        if (!adopt(breaker, entry, fleet, principal, "from=fleet")) {
            return false;
        }
        Map<String, Object> changes = changes(before, entry.applied);
        if (changes.isEmpty()) {
            return false; // the same settings under a new version or epoch: nothing to tell
        }
        LOGGER.info("breaker=" + breaker.getName() + " settings=" + describeChanges(changes) + " version="
                + fleet.version() + " principal=" + LogText.of(principal) + " from=fleet");
        record(breaker, changes, principal);
        return true;
    }

    /**
     * Makes {@code fleet} this instance's view of the fleet's settings and applies them, checked as a
     * change through the endpoint is; settings that would be refused there are refused here too (a WARN
     * line, and the breaker keeps its settings). Returns whether they were applied.
     */
    private boolean adopt(
            CircuitBreaker breaker, Entry entry, SharedSettings.Fleet fleet, String principal, String from) {
        String name = breaker.getName();
        if (!fleet.epoch().equals(entry.fleet.epoch()) && !entry.fleet.isNone()) {
            entry.leftEpochs.addLast(entry.fleet.epoch());
            if (entry.leftEpochs.size() > LEFT_EPOCHS) {
                entry.leftEpochs.removeFirst();
            }
        }
        entry.fleet = fleet; // the base of this instance's next change, applied or not
        entry.fleetSetAt = System.nanoTime();
        entry.localOnly = false;
        BreakerConfig config;
        try {
            Map<String, String> overrides = new LinkedHashMap<>();
            for (Map.Entry<String, String> override : fleet.overrides().entrySet()) {
                Setting<?> setting = setting(name, override.getKey());
                overrides.put(setting.propertyName(), written(parse(name, setting, override.getValue())));
            }
            config = build(name, entry.configured, overrides);
            String refusal = sharedSettings.refusal(name, config);
            if (refusal != null) {
                throw new IllegalArgumentException(refusal);
            }
            entry.fleetRefused = false;
            if (!overrides.equals(entry.applied)) {
                breaker.reconfigure(config); // the same settings again would only restart the window
                entry.applied = Collections.unmodifiableMap(overrides);
            }
            return true;
        } catch (InvalidBreakerPropertyException | IllegalArgumentException invalid) {
            entry.fleetRefused = true;
            LOGGER.warn("breaker=" + name + " settings version " + fleet.version() + " of the fleet cannot apply"
                    + " here, the breaker keeps its settings: " + LogText.of(invalid.getMessage()) + " principal="
                    + LogText.of(principal) + (from == null ? "" : " " + from));
            return false;
        }
    }

    /**
     * The store holds no settings any more (it restarted empty, failed over or was flushed) while this
     * instance remembers the fleet's: it puts them back under a new epoch (the first instance to do so
     * wins; the others adopt its epoch), so instances started later get them too.
     */
    private void lost(CircuitBreaker breaker, Entry entry) {
        String name = breaker.getName();
        SharedSettings.Fleet remembered = entry.fleet;
        if (remembered.overrides().isEmpty() || entry.fleetRefused) {
            adoptAndLog(breaker, entry, SharedSettings.Fleet.NONE);
            return;
        }
        SharedSettings.Outcome outcome = sharedSettings.change(name, remembered, Map.of(), remembered.principal());
        if (outcome instanceof SharedSettings.Outcome.Applied put) {
            LOGGER.warn("breaker=" + name + " the store lost the fleet's settings: put back from this instance,"
                    + " settings=" + describeChanges(new LinkedHashMap<>(remembered.overrides())) + " principal="
                    + LogText.of(remembered.principal()));
            adoptAndLog(breaker, entry, put.fleet());
        } else if (outcome instanceof SharedSettings.Outcome.Stale other) {
            adoptAndLog(breaker, entry, other.fleet()); // another instance put them back, or changed them
        } else if (outcome instanceof SharedSettings.Outcome.Unchanged unchanged) {
            adoptAndLog(breaker, entry, unchanged.fleet());
        }
        // No answer: the next read tries again.
    }

    private boolean shares(CircuitBreaker breaker) {
        return sharedSettings != null && breaker.isShared();
    }

    private void record(CircuitBreaker breaker, Map<String, ?> changes, @Nullable String principal) {
        history.record(
                breaker.getName(),
                new SettingsChangeDescriptor(
                        wallClock.instant().truncatedTo(ChronoUnit.MILLIS),
                        principal,
                        changes.isEmpty()
                                ? Map.of()
                                : Collections.unmodifiableMap(new LinkedHashMap<String, @Nullable Object>(changes))));
    }

    private static String describeChanges(Map<String, ?> changes) {
        if (changes.isEmpty()) {
            return "{}";
        }
        return changes.entrySet().stream()
                .map(change -> LogText.of(change.getKey()) + "="
                        + (change.getValue() == null ? "configured" : LogText.of(change.getValue())))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /** {@code overrides} with {@code changes} applied (a {@code null} value removes the property). */
    private static Map<String, String> with(Map<String, String> overrides, Map<String, String> changes) {
        Map<String, String> result = new LinkedHashMap<>(overrides);
        changes.forEach((property, value) -> {
            if (value == null) {
                result.remove(property);
            } else {
                result.put(property, value);
            }
        });
        return Collections.unmodifiableMap(result);
    }

    /**
     * What changed from {@code before} to {@code after}, in the order of the documentation: new values,
     * and {@code null} for a property returned to its configured value.
     */
    private static Map<String, Object> changes(Map<String, String> before, Map<String, String> after) {
        Map<String, Object> changes = new LinkedHashMap<>();
        for (Setting<?> setting : BreakerConfig.settings()) {
            String property = setting.propertyName();
            String value = after.get(property);
            if (!Objects.equals(value, before.get(property))) {
                changes.put(property, value);
            }
        }
        return changes;
    }

    private long version(CircuitBreaker breaker, Entry entry) {
        return shares(breaker) ? entry.fleet.version() : entry.localVersion;
    }

    private Entry entry(CircuitBreaker breaker) {
        return entries.computeIfAbsent(breaker.getName(), ignored -> new Entry(breaker.getConfig()));
    }

    private SettingsDescriptor describe(
            CircuitBreaker breaker, Entry entry, Boolean changed, FleetChange fleetChanged, String principal) {
        BreakerConfig current = breaker.getConfig();
        Map<String, SettingDescriptor> settings = new LinkedHashMap<>();
        for (Setting<?> setting : BreakerConfig.settings()) {
            Object configured = shown(setting.get(entry.configured));
            Source source = entry.applied.containsKey(setting.propertyName())
                    ? Source.RUNTIME
                    : source(breaker.getName(), setting, entry.configured);
            settings.put(
                    setting.propertyName(), new SettingDescriptor(shown(setting.get(current)), source, configured));
        }
        return new SettingsDescriptor(
                breaker.getName(),
                version(breaker, entry),
                shares(breaker),
                changed,
                fleetChanged == null ? null : fleetChanged.shown(),
                principal,
                settings);
    }

    private Source source(String name, Setting<?> setting, BreakerConfig configured) {
        if (yaml != null && yaml.sets(name, setting)) {
            return Source.YAML;
        }
        return Objects.equals(setting.get(configured), setting.defaultValue()) ? Source.DEFAULT : Source.CODE;
    }

    private static @Nullable Object shown(@Nullable Object value) {
        if (value instanceof Class<?> type) {
            return type.getName();
        }
        if (value instanceof List<?> list) {
            return list.stream()
                    .map(element -> element instanceof Class<?> type ? type.getName() : element)
                    .toList();
        }
        return value;
    }

    /** The settings that can change at runtime, by YAML name: all but the sliding-window type and the call timeout. */
    static List<String> changeable() {
        return BreakerConfig.settings().stream()
                .filter(setting -> startUpOnly(setting) == null)
                .map(Setting::propertyName)
                .toList();
    }

    /** Why a running breaker keeps {@code setting} as it started with, or {@code null} when it can change. */
    private static @Nullable String startUpOnly(Setting<?> setting) {
        if (setting == BreakerConfig.SLIDING_WINDOW_TYPE) {
            return "a running breaker keeps its window type; restart with the new one";
        }
        if (setting == BreakerConfig.CALL_TIMEOUT) {
            return "a running breaker keeps its call timeout (its calls chose their timed or untimed path at"
                    + " start-up); restart with the new one";
        }
        return null;
    }

    private static String path(String name, String property) {
        return PropertyValues.breakerProperty(BreakerNames.propertyKey(name), property);
    }

    /** The setting named {@code property} (as in YAML), or {@code null}. */
    private static @Nullable Setting<?> known(String property) {
        for (Setting<?> setting : BreakerConfig.settings()) {
            if (setting.propertyName().equals(property)) {
                return setting;
            }
        }
        return null;
    }

    /** The setting named {@code property} for a value read from the store (refused as a change through the endpoint is). */
    private static Setting<?> setting(String name, String property) {
        Setting<?> setting = known(property);
        String why = setting == null ? "no such setting" : startUpOnly(setting);
        if (why != null) {
            throw new InvalidBreakerPropertyException(
                    path(name, property), "", why, "one of " + String.join(", ", changeable()), null);
        }
        return setting;
    }

    /** Whether every setting has the same value in both. */
    private static boolean sameValues(BreakerConfig one, BreakerConfig other) {
        for (Setting<?> setting : BreakerConfig.settings()) {
            if (!written(setting.get(one)).equals(written(setting.get(other)))) {
                return false;
            }
        }
        return true;
    }

    /** A parsed value as written: {@code none} for a setting turned off. */
    private static String written(@Nullable Object value) {
        return value == null ? NONE : PropertyValues.of(value);
    }

    /**
     * The value {@code raw} sets, or {@code null} for {@code none} on a setting that can be off (one
     * without a default: {@code slow-call-duration-threshold}, {@code max-wait-duration-in-open-state}).
     */
    private @Nullable Object parse(String name, Setting<?> setting, Object raw) {
        String path = path(name, setting.propertyName());
        if (setting.defaultValue() == null && raw instanceof String text && NONE.equalsIgnoreCase(text.trim())) {
            return null;
        }
        if (setting.type() == List.class) {
            // As in YAML: a comma-separated text, blanks around names left out; "" or [] is no class at all.
            List<?> names = raw instanceof List<?> list
                    ? list
                    : Arrays.stream(String.valueOf(raw).split(","))
                            .map(String::trim)
                            .filter(className -> !className.isEmpty())
                            .toList();
            return ExceptionClasses.load(path, names, classLoader);
        }
        Object value = setting.type() == Class.class ? ExceptionClasses.loadOne(path, raw, classLoader) : null;
        String allowed = PropertyValues.inPropertyTerms(setting.allowed())
                + (setting.type() == Duration.class ? ", such as 800ms or 30s" : "");
        if (raw instanceof Map<?, ?>
                || raw instanceof List<?>
                || (setting.type() == Integer.class
                        && raw instanceof Number number
                        && number.doubleValue() != Math.rint(number.doubleValue()))) {
            throw new InvalidBreakerPropertyException(path, sent(raw), notA(setting.type()), allowed, null);
        }
        try {
            value = value != null ? value : conversion.convert(raw, setting.type());
        } catch (ConversionException unreadable) {
            throw new InvalidBreakerPropertyException(path, sent(raw), notA(setting.type()), allowed, unreadable);
        }
        try {
            setting.applyTo(BreakerConfig.builder(), value); // the setting's own check, alone
        } catch (InvalidSettingException invalid) {
            throw InvalidBreakerPropertyException.of(path, invalid);
        }
        return value;
    }

    /** A value sent, as a message repeats it: cut when long. */
    private static String sent(Object raw) {
        return ErrorDescriptor.cut(String.valueOf(raw), SettingKeys.SHOWN);
    }

    /** Why a value is not of {@code type}, in the words of start-up. */
    private static String notA(Class<?> type) {
        if (type == Integer.class || type == Long.class) {
            return "it is not a whole number";
        }
        if (type == Float.class || type == Double.class) {
            return "it is not a number";
        }
        if (type == Duration.class) {
            return "it is not a duration (or one too long to hold)";
        }
        if (type == Boolean.class) {
            return "it is not a boolean";
        }
        return type.isEnum()
                ? "it is not one of the allowed values"
                : "it cannot be converted to " + type.getSimpleName();
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

    /** One breaker's runtime state: its configured settings, what it applies, and the fleet's settings. */
    private static final class Entry {

        final BreakerConfig configured;
        /** The overrides this instance applies (property to value as written). */
        Map<String, String> applied = Map.of();
        /** For a breaker kept on this instance: changes since start-up. */
        long localVersion;
        /** For a shared breaker: the fleet's settings as this instance last saw them (the base of its next change). */
        SharedSettings.Fleet fleet = SharedSettings.Fleet.NONE;
        /** When (System.nanoTime) {@link #fleet} was last set: an older read of the store cannot undo it. */
        long fleetSetAt = System.nanoTime();
        /** Whether this instance refused the fleet's settings (they are not put back if the store loses them). */
        boolean fleetRefused;
        /** Whether {@link #applied} holds a change the store did not take (the fleet's settings win over it). */
        boolean localOnly;
        /** When (System.nanoTime) that change was made: only a read sent after it replaces it. */
        long localOnlySince;
        /** Epochs this instance has left, newest last. */
        final ArrayDeque<String> leftEpochs = new ArrayDeque<>();

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

        /** Nothing changed: the fleet's settings changed since this instance saw them (409); it applies them now. */
        record Stale(StaleDescriptor conflict) implements Result {}
    }
}
