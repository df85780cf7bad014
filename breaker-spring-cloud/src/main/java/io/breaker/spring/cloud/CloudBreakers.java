package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.BreakerNames;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Which breaker of the registry a Spring Cloud id (and group) stands for, and the settings given in
 * code; one per factory. The rule: the breaker named {@code id} if it has settings of its own
 * ({@code breakers.instances}, a {@code BreakerConfigCustomizer.of}, or {@code configure(...)}), else
 * the breaker named after the group if that one has, else a breaker named {@code id} with the
 * factory's {@code configureDefault} or {@code breakers.defaults}, which is logged once per name.
 * Resolved once per id and group: OpenFeign asks for its breaker at every call.
 */
final class CloudBreakers {

    private static final Log LOGGER = LogFactory.getLog(CloudBreakers.class);

    /** Map key for a {@code create(id)} without a group. */
    private static final String NO_GROUP = "";

    private final BreakerRegistry registry;
    private final Map<String, Map<String, CircuitBreaker>> resolved = new ConcurrentHashMap<>();
    private final Set<String> configuredInCode = ConcurrentHashMap.newKeySet();
    private volatile @Nullable Function<String, BreakerConfig> defaultConfiguration;

    CloudBreakers(BreakerRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** The breaker for {@code id} in {@code group} (which may be {@code null}). */
    CircuitBreaker breaker(String id, @Nullable String group) {
        Objects.requireNonNull(id, "id");
        Map<String, CircuitBreaker> ofId = resolved.get(id);
        CircuitBreaker breaker = ofId == null ? null : ofId.get(group == null ? NO_GROUP : group);
        if (breaker != null) {
            return breaker;
        }
        return resolved.computeIfAbsent(id, key -> new ConcurrentHashMap<>())
                .computeIfAbsent(group == null ? NO_GROUP : group, key -> resolve(id, group));
    }

    private CircuitBreaker resolve(String id, @Nullable String group) {
        if (hasOwnSettings(id)) {
            return registry.breaker(id);
        }
        if (group != null && !group.isEmpty() && hasOwnSettings(group)) {
            return registry.breaker(group);
        }
        String problem = BreakerNames.problem(id);
        if (problem != null) {
            throw new IllegalArgumentException("Spring Cloud CircuitBreaker id '" + id + "'"
                    + (group == null ? "" : " (group '" + group + "')")
                    + " names no configured breaker and is no valid breaker name: " + problem
                    + ". Configure a breaker named after the id or its group under breakers.instances (a breaker"
                    + " name is " + BreakerNames.RULE + "); with OpenFeign, set"
                    + " spring.cloud.openfeign.circuitbreaker.group.enabled=true to use the client's name, or"
                    + " spring.cloud.openfeign.circuitbreaker.alphanumeric-ids.enabled=true.");
        }
        Function<String, BreakerConfig> defaults = defaultConfiguration;
        boolean existed = registry.find(id).isPresent();
        CircuitBreaker breaker = defaults == null ? registry.breaker(id) : registry.breaker(id, defaults.apply(id));
        if (!existed) {
            LOGGER.info("Breaker '" + id + "', asked for through Spring Cloud CircuitBreaker"
                    + (group == null ? "" : " (group '" + group + "')") + ", uses "
                    + (defaults == null ? "breakers.defaults" : "the factory's configureDefault")
                    + " (configure it under breakers.instances." + BreakerNames.propertyKey(id)
                    + (group == null ? "" : ", or the group under breakers.instances." + groupKey(group))
                    + ")");
        }
        return breaker;
    }

    private static String groupKey(String group) {
        return BreakerNames.problem(group) == null ? BreakerNames.propertyKey(group) : group;
    }

    private boolean hasOwnSettings(String name) {
        return registry.configuredNames().contains(name) || configuredInCode.contains(name);
    }

    /**
     * Gives breaker {@code id} the settings {@code config}, made in code: a breaker that exists
     * (configured in YAML, so created at start-up) is reconfigured, any other is created with them, so
     * that it shows in {@code /actuator/breakers} from now on.
     */
    void configure(String id, BreakerConfig config) {
        String problem = BreakerNames.problem(id);
        if (problem != null) {
            throw new IllegalArgumentException(
                    "configure(..., \"" + id + "\"): " + problem + "; a breaker name is " + BreakerNames.RULE);
        }
        CircuitBreaker existing = registry.find(id).orElse(null);
        if (existing == null) {
            registry.breaker(id, config);
        } else if (existing.getConfig() != config) {
            if (existing.getConfig().getSlidingWindowType() != config.getSlidingWindowType()) {
                throw new IllegalArgumentException("configure(..., \"" + id + "\") sets the sliding-window type "
                        + config.getSlidingWindowType() + ", but breaker '" + id + "' exists already with "
                        + existing.getConfig().getSlidingWindowType()
                        + "; set sliding-window-type under breakers.instances." + BreakerNames.propertyKey(id)
                        + " instead");
            }
            existing.reconfigure(config);
        }
        configuredInCode.add(id);
        resolved.clear(); // an id or group resolved before may stand for this breaker now
    }

    /** The settings a builder for {@code id} starts from: the breaker's own, else its configured ones. */
    BreakerConfig baseFor(String id) {
        return registry.find(id).map(CircuitBreaker::getConfig).orElseGet(() -> registry.configFor(id));
    }

    void configureDefault(Function<String, BreakerConfig> defaultConfiguration) {
        this.defaultConfiguration = Objects.requireNonNull(defaultConfiguration, "defaultConfiguration");
    }
}
