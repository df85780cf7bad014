package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.metrics.BreakerMeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The breakers' Micrometer meters, when Micrometer is on the classpath. Spring Boot binds the
 * {@link BreakerMeterBinder} to every {@code MeterRegistry} it manages.
 */
@AutoConfiguration(afterName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
@ConditionalOnBean(BreakerRegistry.class)
public class BreakerMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public BreakerMeterBinder breakerMeterBinder(BreakerRegistry registry) {
        return new BreakerMeterBinder(registry);
    }
}
