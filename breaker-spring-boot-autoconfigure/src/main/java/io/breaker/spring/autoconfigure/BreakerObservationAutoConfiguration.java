package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.spring.observation.BreakerObservationConvention;
import io.breaker.spring.observation.BreakerObservationMeterFilter;
import io.breaker.spring.observation.BreakerObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Observations of protected calls and of transitions, when the application has an
 * {@code ObservationRegistry} (Spring Boot's actuator defines one). With the no-op registry nothing is
 * observed and nothing listens. The timers Micrometer's default meter handler would make of these
 * observations are filtered out: the breakers' own meters already count and time every call.
 */
@AutoConfiguration(
        afterName = {
            "io.breaker.spring.autoconfigure.BreakerAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
        })
@ConditionalOnClass(name = "io.micrometer.observation.ObservationRegistry")
@ConditionalOnBean(type = {"io.breaker.BreakerRegistry", "io.micrometer.observation.ObservationRegistry"})
public class BreakerObservationAutoConfiguration {

    /** Listens to every breaker, existing or created later, unless the registry records nothing. */
    @Bean
    @ConditionalOnMissingBean
    public BreakerObservations breakerObservations(
            BreakerRegistry breakers,
            ObservationRegistry registry,
            ObjectProvider<BreakerObservationConvention> convention) {
        BreakerObservations observations = new BreakerObservations(registry, convention.getIfUnique());
        if (observations.ifRecording() != null) {
            breakers.onBreakerCreated(breaker -> breaker.addListener(observations));
        }
        return observations;
    }

    /** Keeps the observations from adding timers beside the breakers' own meters. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.config.MeterFilter")
    static class MeterFilterConfiguration {

        @Bean
        @ConditionalOnMissingBean
        static BreakerObservationMeterFilter breakerObservationMeterFilter() {
            return new BreakerObservationMeterFilter();
        }
    }
}
