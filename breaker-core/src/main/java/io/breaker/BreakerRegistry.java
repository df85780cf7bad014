package io.breaker;

import io.breaker.spi.StateStore;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Named breakers, each created once. A name with a config of its own gets that config; any other
 * name gets the default config. Look-ups are lock-free; creation and the registration of creation
 * callbacks are serialised so that every callback sees every breaker exactly once.
 */
public final class BreakerRegistry {

    private final ConcurrentHashMap<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();
    private final BreakerConfig defaultConfig;
    private final Map<String, BreakerConfig> configs;
    private final NanoClock clock;
    private final Clock wallClock;
    /** Shares breakers' states between instances; null (the default) keeps every breaker in memory. */
    private final @Nullable StateStore store;

    private final List<Consumer<CircuitBreaker>> onCreated = new CopyOnWriteArrayList<>();
    private final Object creationLock = new Object();

    private BreakerRegistry(
            BreakerConfig defaultConfig,
            Map<String, BreakerConfig> configs,
            NanoClock clock,
            Clock wallClock,
            @Nullable StateStore store) {
        this.store = store;
        this.defaultConfig = Objects.requireNonNull(defaultConfig, "defaultConfig");
        this.configs = Map.copyOf(configs);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
    }

    /** A registry whose breakers all use {@link BreakerConfig#ofDefaults()}. */
    public static BreakerRegistry ofDefaults() {
        return new BreakerRegistry(BreakerConfig.ofDefaults(), Map.of(), NanoClock.system(), Clock.systemUTC(), null);
    }

    /** A registry with a default config and configs for some names. */
    public static BreakerRegistry of(BreakerConfig defaultConfig, Map<String, BreakerConfig> configs) {
        return new BreakerRegistry(defaultConfig, configs, NanoClock.system(), Clock.systemUTC(), null);
    }

    /** Same, on the given clock. */
    public static BreakerRegistry of(BreakerConfig defaultConfig, Map<String, BreakerConfig> configs, NanoClock clock) {
        return new BreakerRegistry(defaultConfig, configs, clock, Clock.systemUTC(), null);
    }

    /**
     * A registry whose breakers share their state with other instances through {@code store} (each
     * breaker for which the store returns a {@link SharedState}; {@code null} means none).
     */
    public static BreakerRegistry of(
            BreakerConfig defaultConfig,
            Map<String, BreakerConfig> configs,
            NanoClock clock,
            @Nullable StateStore store) {
        return new BreakerRegistry(defaultConfig, configs, clock, Clock.systemUTC(), store);
    }

    /**
     * Same, with the wall clock that dates the breakers' transitions (their {@code stateSince},
     * {@code openedAt} and {@link Transition#at()}); the nano clock alone decides when things happen.
     */
    public static BreakerRegistry of(
            BreakerConfig defaultConfig,
            Map<String, BreakerConfig> configs,
            NanoClock clock,
            Clock wallClock,
            @Nullable StateStore store) {
        return new BreakerRegistry(defaultConfig, configs, clock, wallClock, store);
    }

    /** The wall clock that dates the breakers' transitions. */
    public Clock getWallClock() {
        return wallClock;
    }

    /** The store breakers share their state through, or {@code null} when they live in memory only. */
    public @Nullable StateStore getStateStore() {
        return store;
    }

    /** The breaker with this name, created with its configured (or the default) config on first use. */
    public CircuitBreaker breaker(String name) {
        CircuitBreaker existing = breakers.get(name);
        return existing != null ? existing : create(name, configFor(name));
    }

    /** The breaker with this name, created with {@code config} if it does not exist yet. */
    public CircuitBreaker breaker(String name, BreakerConfig config) {
        CircuitBreaker existing = breakers.get(name);
        return existing != null ? existing : create(name, config);
    }

    /** The breaker with this name, if it exists; never creates one. */
    public Optional<CircuitBreaker> find(String name) {
        return Optional.ofNullable(breakers.get(name));
    }

    /** Every breaker, sorted by name. */
    public List<CircuitBreaker> all() {
        List<CircuitBreaker> all = new ArrayList<>(breakers.values());
        all.sort(Comparator.comparing(CircuitBreaker::getName));
        return all;
    }

    /** The config a breaker of this name gets: its own, or the default. */
    public BreakerConfig configFor(String name) {
        return configs.getOrDefault(name, defaultConfig);
    }

    /** The default config. */
    public BreakerConfig getDefaultConfig() {
        return defaultConfig;
    }

    /** The names that have a config of their own. */
    public java.util.Set<String> configuredNames() {
        return configs.keySet();
    }

    /**
     * Calls {@code callback} for every breaker that exists now and for every one created later,
     * exactly once each (metrics and logging bind this way).
     */
    public void onBreakerCreated(Consumer<CircuitBreaker> callback) {
        Objects.requireNonNull(callback, "callback");
        synchronized (creationLock) {
            onCreated.add(callback);
            breakers.values().forEach(callback);
        }
    }

    /**
     * Adds {@code listener} to every breaker that exists now and to every one created later: it hears
     * their transitions only, and never makes them time their calls (logs, events and histories of
     * transitions bind this way).
     */
    public void addTransitionListener(TransitionListener listener) {
        Objects.requireNonNull(listener, "listener");
        onBreakerCreated(breaker -> breaker.addListener(new TransitionsOnly(breaker, listener)));
    }

    private CircuitBreaker create(String name, BreakerConfig config) {
        Objects.requireNonNull(name, "name");
        synchronized (creationLock) {
            CircuitBreaker existing = breakers.get(name);
            if (existing != null) {
                return existing;
            }
            CircuitBreaker created = CircuitBreaker.of(name, config, clock, wallClock, store);
            breakers.put(name, created);
            onCreated.forEach(callback -> callback.accept(created));
            return created;
        }
    }
}
