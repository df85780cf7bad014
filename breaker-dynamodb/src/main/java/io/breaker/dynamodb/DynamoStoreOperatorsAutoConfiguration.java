package io.breaker.dynamodb;

import io.breaker.spring.actuate.SharedBreakers;
import io.breaker.spring.actuate.SharedSettings;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * What the {@code breakers} endpoint needs from the table, when breakers are shared through our
 * {@link DynamoStateStore}: whether the table answers ({@link DynamoSharedBreakers}) and the settings
 * changed at runtime, shared with the fleet ({@link DynamoSharedSettings}).
 */
@AutoConfiguration(after = DynamoStoreAutoConfiguration.class)
@ConditionalOnClass(SharedSettings.class)
@ConditionalOnBean(DynamoStateStore.class)
public class DynamoStoreOperatorsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(SharedBreakers.class)
    public DynamoSharedBreakers breakerStoreSharedBreakers(DynamoStateStore store) {
        return new DynamoSharedBreakers(store);
    }

    @Bean
    @ConditionalOnMissingBean(SharedSettings.class)
    public DynamoSharedSettings breakerStoreSharedSettings(DynamoStateStore store) {
        return new DynamoSharedSettings(store);
    }
}
