package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.events.BreakerEventPublisher;
import io.breaker.spring.logging.BreakerTransitionLogger;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Makes every transition of every breaker visible without any extra library: one key=value log
 * line ({@link BreakerTransitionLogger}) and one {@link io.breaker.spring.events.BreakerTransitionEvent}.
 */
@AutoConfiguration(afterName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnBean(BreakerRegistry.class)
public class BreakerEventsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public BreakerTransitionLogger breakerTransitionLogger(BreakerRegistry registry) {
        return BreakerTransitionLogger.bind(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    public BreakerEventPublisher breakerEventPublisher(BreakerRegistry registry, ApplicationEventPublisher publisher) {
        return BreakerEventPublisher.bind(registry, publisher);
    }
}
