package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.StateStore;
import org.springframework.util.ClassUtils;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns {@link BreakerProperties} into a {@link BreakerRegistry}: defaults first, then each instance's
 * own settings, then the failure predicate and the customizers. Every value is checked here, and a
 * bad one is reported with its full property path.
 */
public final class BreakerRegistryFactory {

    private static final String DEFAULTS = "breakers.defaults.";
    private static final String DURATION = "a positive duration, such as 800ms or 30s";

    private final BreakerProperties properties;
    private final List<BreakerConfigCustomizer> customizers;
    private final BreakerFailurePredicate failurePredicate;
    private final NanoClock clock;
    private final ClassLoader classLoader;
    private StateStore stateStore;

    /**
     * @param failurePredicate may be {@code null}
     */
    public BreakerRegistryFactory(BreakerProperties properties, List<BreakerConfigCustomizer> customizers,
                                  BreakerFailurePredicate failurePredicate, NanoClock clock,
                                  ClassLoader classLoader) {
        this.properties = properties;
        this.customizers = List.copyOf(customizers);
        this.failurePredicate = failurePredicate;
        this.clock = clock;
        this.classLoader = classLoader;
    }

    /** Shares the breakers' states through this store (breaker-redis); {@code null} keeps them in memory. */
    public BreakerRegistryFactory withStateStore(StateStore store) {
        this.stateStore = store;
        return this;
    }

    /** The registry, with a breaker for every configured instance (and every customizer's name) already created. */
    public BreakerRegistry create() {
        BreakerConfig defaults = build(null, new BreakerProperties.Instance());
        Set<String> names = new LinkedHashSet<>(properties.getInstances().keySet());
        for (BreakerConfigCustomizer customizer : customizers) {
            if (customizer.breakerName() != null) {
                names.add(customizer.breakerName());
            }
        }
        Map<String, BreakerConfig> configs = new LinkedHashMap<>();
        for (String name : names) {
            BreakerProperties.Instance instance = properties.getInstances().get(name);
            configs.put(name, build(name, instance != null ? instance : new BreakerProperties.Instance()));
        }
        BreakerRegistry registry = BreakerRegistry.of(defaults, configs, clock, stateStore);
        names.forEach(registry::breaker);
        return registry;
    }

    /** The config of one instance ({@code name} null: the defaults), with inheritance applied. */
    private BreakerConfig build(String name, BreakerProperties.Instance own) {
        BreakerProperties.Defaults base = properties.getDefaults();
        String prefix = name == null ? DEFAULTS : "breakers.instances." + name + ".";
        BreakerConfig.Builder builder = BreakerConfig.builder();

        Setting<SlidingWindowType> type = setting(prefix, "sliding-window-type", own.getSlidingWindowType(),
                base.getSlidingWindowType());
        Setting<Integer> size = setting(prefix, "sliding-window-size", own.getSlidingWindowSize(),
                base.getSlidingWindowSize());
        if (type.value == null) {
            throw new InvalidBreakerPropertyException(type.path, "", "no window type", "COUNT_BASED, TIME_BASED", null);
        }
        boolean countBased = type.value == SlidingWindowType.COUNT_BASED;
        apply(size, countBased ? "a number of calls from 1 to " + BreakerConfig.MAX_COUNT_WINDOW + " for a COUNT_BASED window"
                        : "a number of seconds from 1 to " + BreakerConfig.MAX_TIME_WINDOW_SECONDS + " for a TIME_BASED window",
                () -> builder.slidingWindow(type.value, size.value));

        Setting<Integer> minimum = setting(prefix, "minimum-number-of-calls", own.getMinimumNumberOfCalls(),
                base.getMinimumNumberOfCalls());
        apply(minimum, "a whole number of at least 1", () -> builder.minimumNumberOfCalls(minimum.value));
        if (countBased && minimum.value > size.value) {
            boolean blameSize = minimum.inherited && !size.inherited;
            Setting<Integer> blamed = blameSize ? size : minimum;
            String allowed = blameSize
                    ? "at least minimum-number-of-calls (" + minimum.value + ") for a COUNT_BASED window"
                    : "at most sliding-window-size (" + size.value + ") for a COUNT_BASED window";
            throw new InvalidBreakerPropertyException(blamed.path, String.valueOf(blamed.value),
                    "the window can never hold minimum-number-of-calls calls", allowed, null);
        }

        Setting<Float> failureRate = setting(prefix, "failure-rate-threshold", own.getFailureRateThreshold(),
                base.getFailureRateThreshold());
        apply(failureRate, "a percentage greater than 0 and at most 100",
                () -> builder.failureRateThreshold(failureRate.value));
        Setting<Float> slowRate = setting(prefix, "slow-call-rate-threshold", own.getSlowCallRateThreshold(),
                base.getSlowCallRateThreshold());
        apply(slowRate, "a percentage greater than 0 and at most 100",
                () -> builder.slowCallRateThreshold(slowRate.value));
        Setting<Duration> slow = setting(prefix, "slow-call-duration-threshold", own.getSlowCallDurationThreshold(),
                base.getSlowCallDurationThreshold());
        if (slow.value != null) {
            apply(slow, DURATION + " (leave it unset to turn slow-call detection off)",
                    () -> builder.slowCallDurationThreshold(slow.value));
        }
        Setting<Duration> wait = setting(prefix, "wait-duration-in-open-state", own.getWaitDurationInOpenState(),
                base.getWaitDurationInOpenState());
        apply(wait, DURATION, () -> builder.waitDurationInOpenState(wait.value));
        Setting<Integer> probes = setting(prefix, "permitted-calls-in-half-open-state",
                own.getPermittedCallsInHalfOpenState(), base.getPermittedCallsInHalfOpenState());
        apply(probes, "a whole number from 1 to 1000", () -> builder.permittedCallsInHalfOpenState(probes.value));
        Setting<Duration> lease = setting(prefix, "probe-lease", own.getProbeLease(), base.getProbeLease());
        apply(lease, DURATION, () -> builder.probeLease(lease.value));

        builder.recordExceptions(throwables(setting(prefix, "record-exceptions", own.getRecordExceptions(),
                base.getRecordExceptions())));
        builder.ignoreExceptions(throwables(setting(prefix, "ignore-exceptions", own.getIgnoreExceptions(),
                base.getIgnoreExceptions())));
        if (failurePredicate != null) {
            builder.recordFailurePredicate(failurePredicate::isFailure);
        }
        for (BreakerConfigCustomizer customizer : customizers) {
            if (customizer.breakerName() == null || customizer.breakerName().equals(name)) {
                customizer.customize(builder);
            }
        }
        return builder.build();
    }

    private List<Class<? extends Throwable>> throwables(Setting<List<String>> names) {
        List<Class<? extends Throwable>> types = new ArrayList<>();
        List<String> list = names.value == null ? List.of() : names.value;
        String allowed = "fully qualified names of classes on the classpath that extend java.lang.Throwable";
        for (int i = 0; i < list.size(); i++) {
            String path = names.path + "[" + i + "]";
            String className = list.get(i) == null ? "" : list.get(i).trim();
            Class<?> type;
            try {
                type = ClassUtils.forName(className, classLoader);
            } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
                throw new InvalidBreakerPropertyException(path, className, "no such class on the classpath", allowed, e);
            }
            if (!Throwable.class.isAssignableFrom(type)) {
                throw new InvalidBreakerPropertyException(path, className, "the class is not a Throwable", allowed, null);
            }
            types.add(type.asSubclass(Throwable.class));
        }
        return types;
    }

    private static <T> Setting<T> setting(String prefix, String property, T own, T inherited) {
        return own != null ? new Setting<>(prefix + property, own, false)
                : new Setting<>(DEFAULTS + property, inherited, !prefix.equals(DEFAULTS));
    }

    private static void apply(Setting<?> setting, String allowed, Runnable step) {
        try {
            step.run();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidBreakerPropertyException(setting.path, display(setting.value),
                    "it is outside the allowed range", allowed, e);
        }
    }

    private static String display(Object value) {
        if (value instanceof Float number && Float.isFinite(number)) {
            return new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
        }
        if (value instanceof Duration duration) {
            return duration.toNanos() % 1_000_000 == 0 ? duration.toMillis() + "ms" : duration.toNanos() + "ns";
        }
        return String.valueOf(value);
    }

    /** A value and the property it came from (the instance's own, or the inherited default). */
    private record Setting<T>(String path, T value, boolean inherited) {
    }
}
