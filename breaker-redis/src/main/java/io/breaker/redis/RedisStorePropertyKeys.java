package io.breaker.redis;

import io.breaker.spring.autoconfigure.BreakerPropertyKeys;
import io.breaker.spring.store.StoreTypes;

import java.util.Map;

/**
 * The keys this module reads: {@code breakers.store.*}, and {@code breakers.instances.<name>.store.type}
 * next to the starter's settings of each breaker.
 */
final class RedisStorePropertyKeys implements BreakerPropertyKeys {

    @Override
    public Map<String, Class<?>> boundClasses() {
        return Map.of("breakers.store", RedisStoreProperties.class, "breakers.instances.*", StoreTypes.Instance.class);
    }
}
