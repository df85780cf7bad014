package io.breaker.spring.autoconfigure;

import io.breaker.NanoClock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

import java.util.List;

/**
 * With {@code breakers.enabled=false} nothing of the breakers exists (no registry, no advice, endpoint,
 * health or metrics), yet the {@code breakers.*} properties are checked as when breakers are on: every
 * key is one a breaker module reads, and every value binds and passes its setting's rules. What needs
 * breakers to exist is not checked: the names in {@code breakers.health.down-when-open} and the beans
 * named by {@code record-result.predicate}. Start-up logs one INFO line saying breakers are off.
 */
@AutoConfiguration
@Conditional(BreakersOffAutoConfiguration.OnBreakersOff.class)
public class BreakersOffAutoConfiguration {

    private static final Log LOGGER = LogFactory.getLog(BreakersOffAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    public BreakerPropertiesCheck breakerPropertiesCheck(Environment environment) {
        return new BreakerPropertiesCheck(
                environment, DeclaredKeys.load(BreakersOffAutoConfiguration.class.getClassLoader()));
    }

    /** @param propertiesCheck asked for so that the keys are checked before the values */
    @Bean
    InitializingBean breakersOffValuesCheck(Environment environment, BreakerPropertiesCheck propertiesCheck) {
        return () -> {
            BreakerProperties properties = Binder.get(environment).bindOrCreate("breakers", BreakerProperties.class);
            new BreakerRegistryFactory(
                            properties,
                            List.of(),
                            null,
                            NanoClock.system(),
                            BreakersOffAutoConfiguration.class.getClassLoader())
                    .create(); // checks every value as at start-up with breakers on; the registry is dropped
            FeatureProperties.check(environment, null);
            LOGGER.info("Breakers are off (breakers.enabled=false): @CircuitProtected methods run unprotected, and"
                    + " no breaker registry, endpoint, health contributor or meters exist; the breakers.* properties"
                    + " are still checked");
        };
    }

    /** Matches when {@code breakers.enabled} binds as false. */
    static class OnBreakersOff extends SpringBootCondition {

        private final OnBreakersEnabledCondition enabled = new OnBreakersEnabledCondition();

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConditionOutcome outcome = enabled.getMatchOutcome(context, metadata);
            return new ConditionOutcome(!outcome.isMatch(), outcome.getConditionMessage());
        }
    }
}
