package io.breaker.redis;

import io.breaker.BreakerRegistry;
import io.breaker.spi.StateStore;
import io.breaker.spring.store.StoreType;
import io.breaker.spring.store.StoreTypes;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
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
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Shares breakers' states through the application's Redis when {@code breakers.store.type=redis}
 * (or {@code breakers.instances.<name>.store.type=redis} for some breakers): a {@link StateStore}
 * bean that the starter's breaker registry picks up. The {@code breakers.store.*} settings are
 * checked even while every breaker stays in memory, so a bad value never waits for the day the
 * store is switched on.
 */
@AutoConfiguration(
        afterName = {
            // Spring Boot 3's name, then Spring Boot 4's (module spring-boot-data-redis): by name, so that
            // one compiled class orders itself right on either line.
            "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration"
        },
        beforeName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(RedisConnectionFactory.class)
@EnableConfigurationProperties(RedisStoreProperties.class)
public class RedisStoreAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public RedisStoreSettings breakerStoreSettings(RedisStoreProperties properties) {
        return properties.toSettings();
    }

    /** The store itself, its start-up check of the defaults, and its meters. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnRedisStore.class)
    static class SharedStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(StateStore.class)
        public RedisStateStore breakerStateStore(
                ObjectProvider<RedisConnectionFactory> connectionFactory,
                RedisStoreSettings settings,
                Environment environment) {
            RedisConnectionFactory factory = connectionFactory.getIfUnique();
            if (factory == null) {
                throw new IllegalStateException(
                        "breakers.store.type=redis needs one RedisConnectionFactory bean: "
                                + "set spring.data.redis.host (or url, sentinel, cluster) so Spring Boot creates it, or define one");
            }
            return new RedisStateStore(
                    factory, settings, StoreTypes.from(environment).sharedThrough(StoreType.REDIS));
        }

        /**
         * Configured breakers are checked against the key expiry when the registry creates them; a breaker
         * named only in code or in an annotation gets {@code breakers.defaults} at its first call, so the
         * defaults are checked at start-up instead.
         */
        @Bean
        @ConditionalOnMissingBean(name = "breakerStoreDefaultsCheck")
        SmartInitializingSingleton breakerStoreDefaultsCheck(
                ObjectProvider<BreakerRegistry> registry, Environment environment) {
            return () -> registry.ifUnique(breakers -> {
                if (breakers.getStateStore() instanceof RedisStateStore store
                        && StoreTypes.from(environment).isDefault(StoreType.REDIS)) {
                    store.getSettings().requireKeyExpiryCoversDefaults(breakers.getDefaultConfig());
                }
            });
        }

        /** The store's meters ({@link RedisStoreMeters}), when Micrometer is there. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(MeterBinder.class)
        static class StoreMetricsConfiguration {

            @Bean
            @ConditionalOnMissingBean(name = "breakerStateStoreMeterBinder")
            MeterBinder breakerStateStoreMeterBinder(ObjectProvider<RedisStateStore> store) {
                return registry -> store.ifAvailable(redis -> new RedisStoreMeters(redis).bindTo(registry));
            }
        }
    }

    /** Matches when the store type is redis, globally or for at least one breaker. */
    static class OnRedisStore extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return StoreTypes.from(context.getEnvironment()).any(StoreType.REDIS)
                    ? ConditionOutcome.match("breakers.store.type is redis (globally or for a breaker)")
                    : ConditionOutcome.noMatch("breakers.store.type is memory for every breaker");
        }
    }
}
