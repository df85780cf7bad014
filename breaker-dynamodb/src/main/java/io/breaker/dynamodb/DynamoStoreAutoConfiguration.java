package io.breaker.dynamodb;

import io.breaker.spi.StateStore;
import io.breaker.spring.store.StoreType;
import io.breaker.spring.store.StoreTypes;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * Shares breakers' states through a DynamoDB table when {@code breakers.store.type=dynamodb} (or
 * {@code breakers.instances.<name>.store.type=dynamodb} for some breakers): a {@link StateStore} bean
 * the starter's registry picks up. The application's {@link DynamoDbClient} bean is used when there
 * is one; otherwise this module creates one from the AWS SDK's default region and credentials chains.
 * The settings are checked even while every breaker stays in memory.
 */
@AutoConfiguration(beforeName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(DynamoDbClient.class)
@EnableConfigurationProperties(DynamoStoreProperties.class)
public class DynamoStoreAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public DynamoStoreSettings breakerDynamoStoreSettings(DynamoStoreProperties properties) {
        return properties.toSettings();
    }

    /** The store, its client when the application has none, and its status. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnDynamoStore.class)
    static class SharedStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(StateStore.class)
        public DynamoStateStore breakerStateStore(
                ObjectProvider<DynamoDbClient> client,
                DynamoStoreSettings settings,
                DynamoStoreProperties properties,
                Environment environment) {
            DynamoDbClient own = client.getIfUnique();
            if (own != null) {
                return new DynamoStateStore(
                        own,
                        settings,
                        StoreTypes.from(environment).sharedThrough(StoreType.DYNAMODB),
                        System::currentTimeMillis);
            }
            return new DynamoStateStore(
                            defaultClient(properties),
                            settings,
                            StoreTypes.from(environment).sharedThrough(StoreType.DYNAMODB),
                            System::currentTimeMillis)
                    .owningClient();
        }

        @Bean
        @ConditionalOnMissingBean
        public DynamoStoreStatus breakerDynamoStoreStatus(DynamoStateStore store) {
            return new DynamoStoreStatus(store);
        }

        /** The store's meters ({@link DynamoStoreMeters}), when Micrometer is there. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(MeterBinder.class)
        static class StoreMetricsConfiguration {

            @Bean
            @ConditionalOnMissingBean(name = "breakerDynamoStoreMeterBinder")
            MeterBinder breakerDynamoStoreMeterBinder(ObjectProvider<DynamoStateStore> store) {
                return registry -> store.ifAvailable(dynamo -> new DynamoStoreMeters(dynamo).bindTo(registry));
            }
        }

        private static DynamoDbClient defaultClient(DynamoStoreProperties properties) {
            DynamoDbClientBuilder builder = DynamoDbClient.builder();
            if (properties.getDynamodb().getEndpoint() != null) {
                builder.endpointOverride(properties.getDynamodb().getEndpoint());
            }
            return builder.build();
        }
    }

    /** Matches when the store type is dynamodb, globally or for at least one breaker. */
    static class OnDynamoStore extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return StoreTypes.from(context.getEnvironment()).any(StoreType.DYNAMODB)
                    ? ConditionOutcome.match("breakers.store.type is dynamodb (globally or for a breaker)")
                    : ConditionOutcome.noMatch("breakers.store.type is not dynamodb for any breaker");
        }
    }
}
