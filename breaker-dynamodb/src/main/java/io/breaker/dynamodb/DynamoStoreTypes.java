package io.breaker.dynamodb;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which breakers are shared through DynamoDB: {@code breakers.store.type} for all, overridden per
 * breaker by {@code breakers.instances.<name>.store.type}.
 */
final class DynamoStoreTypes implements Predicate<String> {

    private final StoreType global;
    private final Map<String, StoreType> overrides;

    private DynamoStoreTypes(StoreType global, Map<String, StoreType> overrides) {
        this.global = global;
        this.overrides = Map.copyOf(overrides);
    }

    static DynamoStoreTypes from(Environment environment) {
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
        return new DynamoStoreTypes(global, overrides);
    }

    /** Whether any breaker is shared through DynamoDB. */
    boolean anyDynamo() {
        return global == StoreType.DYNAMODB || overrides.containsValue(StoreType.DYNAMODB);
    }

    @Override
    public boolean test(String breakerName) {
        return overrides.getOrDefault(breakerName, global) == StoreType.DYNAMODB;
    }

    /** The part of {@code breakers.instances.<name>} this module reads. */
    public static class Instance {

        private final Store store = new Store();

        public Store getStore() {
            return store;
        }

        public static class Store {

            /** Where this breaker keeps its state, overriding breakers.store.type. */
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
