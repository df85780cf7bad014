package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.actuate.BreakersHealth;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the {@code breakers} health contributor is made of on every Spring Boot line: the check and
 * its start-up validation. Each starter imports it where its line's health indicator is enabled and
 * adds only the small adapter to that line's health types.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(BreakerHealthProperties.class)
public class BreakersHealthCheckConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public BreakersHealth breakersHealth(BreakerRegistry registry, BreakerHealthProperties properties) {
        return new BreakersHealth(registry, properties.getDownWhenOpen());
    }

    /** Once every breaker of the start-up exists: each name in down-when-open must be one of them. */
    @Bean
    @ConditionalOnMissingBean(name = "breakersHealthNamesCheck")
    SmartInitializingSingleton breakersHealthNamesCheck(BreakerRegistry registry, BreakerHealthProperties properties) {
        return () -> DownWhenOpenNames.check(properties.getDownWhenOpen(), registry);
    }
}
