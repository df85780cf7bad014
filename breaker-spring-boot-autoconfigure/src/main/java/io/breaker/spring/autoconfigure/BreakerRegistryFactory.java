package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.InvalidSettingException;
import io.breaker.NanoClock;
import io.breaker.RetryAfterResolver;
import io.breaker.Setting;
import io.breaker.spi.StateStore;
import io.breaker.spring.BreakerNames;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import io.breaker.spring.config.MappedSettings;
import io.breaker.spring.config.PropertyValues;
import io.breaker.spring.http.HttpRetryAfter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns {@link BreakerProperties} into a {@link BreakerRegistry}: defaults first, then each instance's
 * own settings, then the failure predicate and the customizers. Every value is checked by the
 * builder against its {@link Setting}, and a bad one is reported with its full property path.
 */
public final class BreakerRegistryFactory {

    private static final String DEFAULTS = "breakers.defaults.";
    private static final String FAULTS = "breakers.faults.";
    private static final Log LOGGER = LogFactory.getLog(BreakerRegistryFactory.class);

    private final BreakerProperties properties;
    private final List<BreakerConfigCustomizer> customizers;
    private final @Nullable BreakerFailurePredicate failurePredicate;
    private final NanoClock clock;
    private final ClassLoader classLoader;
    private @Nullable StateStore stateStore;
    private Clock wallClock = Clock.systemUTC();
    /** Reads the Retry-After of HTTP failures; made by create(), with the wall clock then set. */
    private RetryAfterResolver retryAfter = failure -> Optional.empty();

    /**
     * @param failurePredicate may be {@code null}
     */
    public BreakerRegistryFactory(
            BreakerProperties properties,
            List<BreakerConfigCustomizer> customizers,
            @Nullable BreakerFailurePredicate failurePredicate,
            NanoClock clock,
            ClassLoader classLoader) {
        this.properties = properties;
        this.customizers = List.copyOf(customizers);
        this.failurePredicate = failurePredicate;
        this.clock = clock;
        this.classLoader = classLoader;
    }

    /** Shares the breakers' states through this store (breaker-redis); {@code null} keeps them in memory. */
    public BreakerRegistryFactory withStateStore(@Nullable StateStore store) {
        this.stateStore = store;
        return this;
    }

    /** Dates the breakers' transitions with this clock instead of the system's (UTC). */
    public BreakerRegistryFactory withWallClock(Clock wallClock) {
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        return this;
    }

    /** The registry, with a breaker for every configured instance (and every customizer's name) already created. */
    public BreakerRegistry create() {
        if (HttpRetryAfter.available()) {
            retryAfter = new HttpRetryAfter(wallClock);
        }
        BreakerConfig defaults = build(null, new BreakerProperties.Settings());
        Set<String> names = new LinkedHashSet<>(properties.getInstances().keySet());
        names.addAll(properties.getFaults().keySet()); // a faults section names a breaker as instances does
        for (String name : names) {
            String problem = BreakerNames.problem(name);
            if (problem != null) {
                throw new InvalidBreakerPropertyException(
                        (properties.getInstances().containsKey(name) ? "breakers.instances." : FAULTS)
                                + BreakerNames.propertyKey(name),
                        "",
                        problem,
                        "a key naming a breaker with " + BreakerNames.RULE,
                        null);
            }
        }
        for (BreakerConfigCustomizer customizer : customizers) {
            if (customizer.breakerName() != null) {
                String problem = BreakerNames.problem(customizer.breakerName());
                if (problem != null) {
                    throw new IllegalArgumentException("BreakerConfigCustomizer.of(\"" + customizer.breakerName()
                            + "\", ...): " + problem + "; a breaker name is " + BreakerNames.RULE);
                }
                names.add(customizer.breakerName());
            }
        }
        Map<String, BreakerConfig> configs = new LinkedHashMap<>();
        for (String name : names) {
            BreakerProperties.Settings instance = properties.getInstances().get(name);
            configs.put(name, build(name, instance != null ? instance : new BreakerProperties.Settings()));
        }
        BreakerRegistry registry = BreakerRegistry.of(defaults, configs, clock, wallClock, stateStore);
        names.forEach(registry::breaker);
        configs.forEach((name, config) -> {
            if (config.isFaultInjectionEnabled()) {
                LOGGER.warn("breaker=" + name + " faults are injected into its calls: failureRate="
                        + PropertyValues.of(config.getFaultFailureRate()) + " exception="
                        + config.getFaultException().getName() + " latency="
                        + (config.getFaultLatency() == null ? "none" : PropertyValues.of(config.getFaultLatency()))
                        + " latencyRate=" + PropertyValues.of(config.getFaultLatencyRate()));
            }
        });
        return registry;
    }

    /**
     * The config of one instance ({@code name} null: the defaults). Each setting of
     * {@link BreakerConfig#settings()} takes the instance's own value, else the one in
     * {@code breakers.defaults} (both read through {@link BreakerSettingsMapping}), else the setting's
     * default; then the predicate and the customizers run.
     */
    private BreakerConfig build(@Nullable String name, BreakerProperties.Settings own) {
        String prefix = name == null ? DEFAULTS : "breakers.instances." + BreakerNames.propertyKey(name) + ".";
        MappedSettings instance = BreakerSettingsMapping.of(
                own, name == null ? null : properties.getFaults().get(name));
        MappedSettings defaults = BreakerSettingsMapping.of(properties.getDefaults());
        BreakerConfig.Builder builder = BreakerConfig.builder();
        Map<Setting<?>, Source> sources = new HashMap<>();
        for (Setting<?> setting : BreakerConfig.settings()) {
            MappedSettings from = instance.sets(setting) ? instance : defaults;
            if (!from.sets(setting)) {
                continue; // the setting's own default, which the builder already holds
            }
            Source source = from == instance
                    ? new Source(path(name, prefix, setting), false, from.written(setting))
                    : new Source(DEFAULTS + setting.propertyName(), name != null, from.written(setting));
            sources.put(setting, source);
            try {
                setting.applyTo(builder, from.value(setting, source.path(), classLoader));
            } catch (InvalidSettingException invalid) {
                throw InvalidBreakerPropertyException.of(source.path(), invalid);
            }
        }
        if (failurePredicate != null) {
            builder.recordFailurePredicate(failurePredicate::isFailure);
        }
        if (HttpRetryAfter.available()) {
            builder.retryAfterResolver(retryAfter);
        }
        for (BreakerConfigCustomizer customizer : customizers) {
            if (customizer.breakerName() == null || customizer.breakerName().equals(name)) {
                customizer.customize(builder);
            }
        }
        try {
            return builder.build();
        } catch (InvalidSettingException invalid) {
            throw blame(invalid, sources);
        }
    }

    /** Where {@code name}'s own value of {@code setting} is written (its faults section for a fault-* setting). */
    private static String path(@Nullable String name, String prefix, Setting<?> setting) {
        return name == null
                ? prefix + setting.propertyName()
                : PropertyValues.breakerProperty(BreakerNames.propertyKey(name), setting.propertyName());
    }

    /**
     * A check across settings failed (the minimum number of calls does not fit a count window). The
     * blame goes to the value the user wrote for this breaker: an instance that sets only a small
     * window is told about its window, not about the minimum it inherited.
     */
    private static RuntimeException blame(InvalidSettingException invalid, Map<Setting<?>, Source> sources) {
        Source minimum = sources.get(BreakerConfig.MINIMUM_NUMBER_OF_CALLS);
        Source size = sources.get(BreakerConfig.SLIDING_WINDOW_SIZE);
        if (invalid.getSetting() == BreakerConfig.MINIMUM_NUMBER_OF_CALLS
                && size != null
                && !size.inherited()
                && (minimum == null || minimum.inherited())) {
            return new InvalidBreakerPropertyException(
                    size.path(),
                    PropertyValues.of(size.value()),
                    "the window can never hold " + "minimum-number-of-calls (" + invalid.getValue() + ") calls",
                    "at least minimum-number-of-calls (" + invalid.getValue() + ") for a count-based window",
                    invalid);
        }
        Source source = sources.get(invalid.getSetting());
        return source == null ? invalid : InvalidBreakerPropertyException.of(source.path(), invalid);
    }

    /** Where a value came from: the property, whether it is inherited from the defaults, and the value. */
    private record Source(String path, boolean inherited, Object value) {}
}
