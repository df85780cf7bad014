package io.breaker.spring.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code breakers.enabled} is false, read the way binding reads a boolean: {@code false},
 * {@code off}, {@code no} and {@code 0} all turn breakers off (a plain {@code @ConditionalOnProperty}
 * would take only {@code false}), and a value that is no boolean at all stops start-up.
 */
class OnBreakersEnabledCondition extends SpringBootCondition {

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
