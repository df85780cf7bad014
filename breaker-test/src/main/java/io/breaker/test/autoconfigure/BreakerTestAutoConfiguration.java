package io.breaker.test.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spi.StateStore;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerConfigCustomizer;
import io.breaker.spring.autoconfigure.BreakerFailurePredicate;
import io.breaker.spring.autoconfigure.BreakerProperties;
import io.breaker.spring.autoconfigure.BreakerPropertiesCheck;
import io.breaker.spring.autoconfigure.BreakerRegistryFactory;
import io.breaker.test.BreakerClock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The breakers of a test's application on a {@link BreakerClock}: the registry is built as
 * {@link BreakerAutoConfiguration} builds it (same properties, checks, customizers, failure predicate
 * and store), except for its clocks. The registry is defined here rather than by offering the clock
 * as a bean for the main auto-configuration to pick up, so that an application's own
 * {@link java.time.Clock} bean neither replaces the breakers' clock nor meets a second {@code Clock}.
 * Imported by {@link io.breaker.test.AutoConfigureBreakers}.
 */
@AutoConfiguration(before = BreakerAutoConfiguration.class)
@Conditional(BreakerTestAutoConfiguration.OnBreakersEnabled.class)
@EnableConfigurationProperties(BreakerProperties.class)
public class BreakerTestAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public BreakerClock breakerClock() {
        return BreakerClock.startingNow();
    }

    /** @param propertiesCheck asked for so that every key is checked before the settings are read */
    @Bean
    @ConditionalOnMissingBean
    public BreakerRegistry breakerRegistry(
            BreakerPropertiesCheck propertiesCheck,
            BreakerProperties properties,
            ObjectProvider<BreakerConfigCustomizer> customizers,
            ObjectProvider<BreakerFailurePredicate> failurePredicate,
            BreakerClock clock,
            ObjectProvider<StateStore> stateStore) {
        return new BreakerRegistryFactory(
                        properties,
                        customizers.orderedStream().toList(),
                        failurePredicate.getIfUnique(),
                        clock,
                        BreakerAutoConfiguration.class.getClassLoader())
                .withStateStore(stateStore.getIfUnique())
                .withWallClock(clock.wallClock())
                .create();
    }

    /** {@code breakers.enabled}, read as the main auto-configuration reads it. */
    static class OnBreakersEnabled extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean enabled = Binder.get(context.getEnvironment())
                    .bind("breakers.enabled", Boolean.class)
                    .orElse(true);
            return enabled
                    ? ConditionOutcome.match("breakers.enabled is true or unset")
                    : ConditionOutcome.noMatch("breakers.enabled is false");
        }
    }
}
