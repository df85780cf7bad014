package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.NanoClock;
import io.breaker.spi.StateStore;
import io.breaker.spring.aop.CircuitProtectedAdvisor;
import io.breaker.spring.aop.CircuitProtectedValidator;
import io.breaker.spring.aop.ProtectedMethods;
import io.breaker.spring.aop.RecordedResults;
import io.breaker.spring.call.CallTimeouts;
import io.breaker.spring.observation.BreakerObservations;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.type.AnnotationMetadata;

import java.time.Clock;

/**
 * Breakers from {@code breakers.*} properties in one {@link BreakerRegistry}, and the
 * {@code @CircuitProtected} advice. {@code breakers.enabled=false} turns all of it off. Before the
 * registry is built, every key under {@code breakers.} is checked against the keys the breaker
 * modules declare ({@link BreakerPropertyKeys}).
 */
@AutoConfiguration(after = AopAutoConfiguration.class)
@Conditional(OnBreakersEnabledCondition.class)
@EnableConfigurationProperties(BreakerProperties.class)
public class BreakerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public BreakerPropertiesCheck breakerPropertiesCheck(Environment environment) {
        return new BreakerPropertiesCheck(
                environment, DeclaredKeys.load(BreakerAutoConfiguration.class.getClassLoader()));
    }

    /** @param propertiesCheck asked for so that every key is checked before the settings are read */
    @Bean
    @ConditionalOnMissingBean
    public BreakerRegistry breakerRegistry(
            BreakerPropertiesCheck propertiesCheck,
            BreakerProperties properties,
            ObjectProvider<BreakerConfigCustomizer> customizers,
            ObjectProvider<BreakerFailurePredicate> failurePredicate,
            ObjectProvider<NanoClock> clock,
            ObjectProvider<Clock> wallClock,
            ObjectProvider<StateStore> stateStore) {
        return new BreakerRegistryFactory(
                        properties,
                        customizers.orderedStream().toList(),
                        failurePredicate.getIfUnique(),
                        clock.getIfUnique(NanoClock::system),
                        BreakerAutoConfiguration.class.getClassLoader())
                .withStateStore(stateStore.getIfUnique())
                .withWallClock(wallClock.getIfUnique(Clock::systemUTC))
                .create();
    }

    /** The console's and the health contributor's properties, checked also while those parts are off. */
    @Bean
    @ConditionalOnMissingBean(name = "breakerFeaturePropertiesCheck")
    static SmartInitializingSingleton breakerFeaturePropertiesCheck(
            Environment environment, ObjectProvider<BreakerRegistry> registry) {
        return () -> FeatureProperties.check(environment, registry.getIfUnique());
    }

    /**
     * Which results count as failures, per breaker ({@code record-result}); checked when created, so a
     * bad rule stops start-up even before a method uses it.
     */
    @Bean
    @ConditionalOnMissingBean
    public RecordedResults breakerRecordedResults(BreakerProperties properties, ListableBeanFactory beans) {
        return BreakerResultRules.of(properties, beans);
    }

    /**
     * How breakers with {@code call-timeout} run their calls (executor, context); checked when created,
     * so a configured breaker whose timeout cannot work stops start-up even before a method uses it.
     */
    @Bean
    @ConditionalOnMissingBean
    public CallTimeouts breakerCallTimeouts(
            BreakerProperties properties,
            BreakerRegistry registry,
            ListableBeanFactory beans,
            ObjectProvider<TaskDecorator> taskDecorator) {
        return BreakerCallTimeouts.of(properties, registry, beans, taskDecorator.getIfUnique());
    }

    /** The advice and the start-up check of annotated methods; infrastructure beans, created early. */
    @Configuration(proxyBeanMethods = false)
    @Import(AutoProxyCreatorRegistrar.class)
    static class AspectConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static ProtectedMethods breakerProtectedMethods(
                ObjectProvider<BreakerRegistry> registry,
                ObjectProvider<RecordedResults> recordedResults,
                ObjectProvider<CallTimeouts> callTimeouts,
                ObjectProvider<BreakerObservations> observations) {
            return new ProtectedMethods(
                    registry::getObject,
                    recordedResults::getObject,
                    callTimeouts::getObject,
                    () -> recording(observations.getIfUnique()));
        }

        /** {@code observations} unless absent or recording nothing. */
        private static @Nullable BreakerObservations recording(@Nullable BreakerObservations observations) {
            return observations == null ? null : observations.ifRecording();
        }

        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static CircuitProtectedAdvisor circuitProtectedAdvisor(ProtectedMethods methods, Environment environment) {
            // Advisors are created while post-processors are still being registered: depending on the
            // BreakerProperties bean here would create it then, unseen by the later post-processors. So
            // the order is bound from the environment into a BreakerProperties of its own, with the same
            // binding rules and error reports as the bean.
            return new CircuitProtectedAdvisor(
                    methods,
                    Binder.get(environment)
                            .bindOrCreate("breakers", BreakerProperties.class)
                            .getAspectOrder());
        }

        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static CircuitProtectedValidator circuitProtectedValidator(
                ProtectedMethods methods, ObjectProvider<BreakerRegistry> registry) {
            return new CircuitProtectedValidator(methods, registry::getObject);
        }
    }

    /** Makes sure an auto-proxy creator exists, as {@code @EnableTransactionManagement} does. */
    static class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
