package io.breaker.redis;

import io.breaker.spring.actuate.SharedBreakers;
import io.breaker.spring.actuate.SharedSettings;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * What the {@code breakers} endpoint needs from Redis, when breakers are shared through our
 * {@link RedisStateStore} (not when an application brings a store of its own): whether Redis answers
 * ({@link RedisSharedBreakers}) and the settings changed at runtime, shared with the fleet
 * ({@link RedisSharedSettings}).
 */
@AutoConfiguration(after = RedisStoreAutoConfiguration.class)
@ConditionalOnBean(RedisStateStore.class)
public class RedisStoreOperatorsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(SharedBreakers.class)
    public RedisSharedBreakers breakerStoreSharedBreakers(RedisStateStore store) {
        return new RedisSharedBreakers(store);
    }

    @Bean
    @ConditionalOnMissingBean(SharedSettings.class)
    public RedisSharedSettings breakerStoreSharedSettings(RedisStateStore store) {
        return new RedisSharedSettings(store);
    }
}
