package io.breaker.redis;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link BreakerStoreStatus} behind the {@code breakerStore} health contributor, the same on
 * every Spring Boot line: each line's health auto-configuration imports it and adds its adapter.
 */
@Configuration(proxyBeanMethods = false)
public class StoreStatusConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public BreakerStoreStatus breakerStoreStatus(RedisStateStore store) {
        return new BreakerStoreStatus(store);
    }
}
