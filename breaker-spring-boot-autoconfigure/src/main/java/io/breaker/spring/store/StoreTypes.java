package io.breaker.spring.store;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which store each breaker keeps its state in: {@code breakers.store.type} for all, overridden per
 * breaker by {@code breakers.instances.<name>.store.type}. Read with a {@link Binder}, so the starter's
 * own {@code breakers.instances} binding stays as it is; a store module asks for the breakers of its
 * own type.
 */
public final class StoreTypes {

    private final StoreType global;
    private final Map<String, StoreType> overrides;

    private StoreTypes(StoreType global, Map<String, StoreType> overrides) {
        this.global = global;
        this.overrides = Map.copyOf(overrides);
    }

    /** The store types as {@code environment} sets them (a bad value fails the binding, naming the property). */
    public static StoreTypes from(Environment environment) {
        Binder binder = Binder.get(environment);
        StoreType global = binder.bind("breakers.store.type", StoreType.class).orElse(StoreType.MEMORY);
        Map<String, StoreType> overrides = new HashMap<>();
        binder.bind("breakers.instances", Bindable.mapOf(String.class, Instance.class))
                .orElse(Map.of())
                .forEach((name, instance) -> {
                    StoreType type = instance.getStore().getType();
                    if (type != null) {
                        overrides.put(name, type);
                    }
                });
        return new StoreTypes(global, overrides);
    }

    /** Where the breaker called {@code breakerName} keeps its state. */
    public StoreType of(String breakerName) {
        return overrides.getOrDefault(breakerName, global);
    }

    /** Whether any breaker keeps its state in {@code type}. */
    public boolean any(StoreType type) {
        return global == type || overrides.containsValue(type);
    }

    /**
     * Whether a breaker without a store type of its own (named only in code or annotations) keeps its
     * state in {@code type}.
     */
    public boolean isDefault(StoreType type) {
        return global == type;
    }

    /** The names of the breakers that keep their state in {@code type}, as a test. */
    public Predicate<String> sharedThrough(StoreType type) {
        return breakerName -> of(breakerName) == type;
    }

    /** The part of {@code breakers.instances.<name>} the store modules read. */
    public static class Instance {

        private final Store store = new Store();

        public Store getStore() {
            return store;
        }

        /** {@code breakers.instances.<name>.store}. */
        public static class Store {

            private @Nullable StoreType type;

            /** Where this breaker keeps its state, overriding {@code breakers.store.type}. */
            public @Nullable StoreType getType() {
                return type;
            }

            public void setType(@Nullable StoreType type) {
                this.type = type;
            }
        }
    }
}
