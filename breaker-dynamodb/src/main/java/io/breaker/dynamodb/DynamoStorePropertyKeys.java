package io.breaker.dynamodb;

import io.breaker.spring.autoconfigure.BreakerPropertyKeys;
import io.breaker.spring.store.StoreTypes;

import java.util.Map;

/** The keys this module reads: {@code breakers.store.*} and {@code breakers.instances.<name>.store.type}. */
final class DynamoStorePropertyKeys implements BreakerPropertyKeys {

    @Override
    public Map<String, Class<?>> boundClasses() {
        return Map.of("breakers.store", DynamoStoreProperties.class, "breakers.instances.*", StoreTypes.Instance.class);
    }
}
