package io.breaker.redis;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which breakers are shared: {@code breakers.store.type} for all, overridden per breaker by
 * {@code breakers.instances.<name>.store.type}. Read with a {@link Binder}, so the starter's own
 * {@code breakers.instances} binding stays as it is.
 */
final class StoreTypes implements Predicate<String> {

    private final StoreType global;
    private final Map<String, StoreType> overrides;

    private StoreTypes(StoreType global, Map<String, StoreType> overrides) {
        this.global = global;
        this.overrides = Map.copyOf(overrides);
    }

    static StoreTypes from(Environment environment) {
        Binder binder = Binder.get(environment);
        StoreType global = binder.bind("breakers.store.type", StoreType.class).orElse(StoreType.MEMORY);
        Map<String, StoreType> overrides = new HashMap<>();
        binder.bind("breakers.instances", Bindable.mapOf(String.class, Instance.class))
                .orElse(Map.of())
                .forEach((name, instance) -> {
                    if (instance.getStore().getType() != null) {
                        overrides.put(name, instance.getStore().getType());
                    }
                });
        return new StoreTypes(global, overrides);
    }

    /** Whether any breaker is shared through Redis. */
    boolean anyRedis() {
        return global == StoreType.REDIS || overrides.containsValue(StoreType.REDIS);
    }

    /** Whether a breaker without a store type of its own (named only in code or annotations) is shared. */
    boolean sharesByDefault() {
        return global == StoreType.REDIS;
    }

    @Override
    public boolean test(String breakerName) {
        return overrides.getOrDefault(breakerName, global) == StoreType.REDIS;
    }

    /** The part of {@code breakers.instances.<name>} this module reads. */
    public static class Instance {

        private final Store store = new Store();

        public Store getStore() {
            return store;
        }

        public static class Store {

            private @Nullable StoreType type;

            public @Nullable StoreType getType() {
                return type;
            }

            public void setType(@Nullable StoreType type) {
                this.type = type;
            }
        }
    }
}
