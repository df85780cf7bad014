package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.CallOutcome;
import io.breaker.spring.actuate.BreakerActivity;
import io.breaker.spring.actuate.BreakerEventStream;
import io.breaker.spring.actuate.BreakerOperations;
import io.breaker.spring.actuate.BreakerStreamLifecycle;
import io.breaker.spring.actuate.BreakerTransitionHistory;
import io.breaker.spring.actuate.BreakersEndpoint;
import io.breaker.spring.actuate.BreakersWebEndpointExtension;
import io.breaker.spring.actuate.CallTotals;
import io.breaker.spring.actuate.RuntimeSettings;
import io.breaker.spring.actuate.SharedBreakers;
import io.breaker.spring.actuate.SharedSettings;
import io.breaker.spring.config.ConfiguredSettings;
import io.breaker.spring.metrics.BreakerCallCounts;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code breakers} actuator endpoint, when Spring Boot Actuator is on the classpath and the
 * endpoint is available (exposed and not disabled).
 */
@AutoConfiguration(afterName = "io.breaker.spring.autoconfigure.BreakerAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(BreakerRegistry.class)
public class BreakerEndpointAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(endpoint = BreakersEndpoint.class)
    static class BreakersEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        public BreakerTransitionHistory breakerTransitionHistory(BreakerRegistry registry) {
            return BreakerTransitionHistory.bind(registry, BreakerTransitionHistory.DEFAULT_SIZE);
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakerActivity breakerActivity(BreakerRegistry registry, ObjectProvider<CallTotals.Source> totals) {
            return new BreakerActivity(registry.getWallClock(), totals.getIfUnique());
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakerOperations breakerOperations(
                BreakerRegistry registry,
                BreakerTransitionHistory history,
                ObjectProvider<SharedBreakers> sharedBreakers,
                ObjectProvider<BreakerActivity> activity) {
            return new BreakerOperations(registry, history, sharedBreakers.getIfUnique(), activity.getIfUnique());
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakersEndpoint breakersEndpoint(BreakerOperations operations) {
            return new BreakersEndpoint(operations);
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakerEventStream breakerEventStream(BreakerRegistry registry) {
            return BreakerEventStream.bind(registry);
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakerStreamLifecycle breakerStreamLifecycle(BreakerEventStream stream) {
            return new BreakerStreamLifecycle(stream);
        }

        @Bean
        @ConditionalOnMissingBean
        public RuntimeSettings breakerRuntimeSettings(
                BreakerRegistry registry,
                ObjectProvider<BreakerProperties> properties,
                BreakerTransitionHistory history,
                ObjectProvider<SharedSettings> sharedSettings) {
            BreakerProperties configured = properties.getIfUnique();
            ConfiguredSettings yaml = configured == null ? null : BreakerSettingsMapping.configuredSettings(configured);
            return new RuntimeSettings(
                    registry,
                    yaml,
                    history,
                    registry.getWallClock(),
                    sharedSettings.getIfUnique(),
                    registry.getClass().getClassLoader());
        }

        /**
         * The console's call totals, from the breakers' timers: the meter registry is looked up at the
         * first sample, so that this needs no order against Micrometer's auto-configuration.
         */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
        static class CallTotalsConfiguration {

            @Bean
            @ConditionalOnMissingBean
            public CallTotals.Source breakerCallTotals(ObjectProvider<MeterRegistry> meters) {
                BreakerCallCounts calls = new BreakerCallCounts(meters::getIfUnique);
                return breaker -> {
                    long[] counts = calls.of(breaker.getName());
                    if (counts == null) {
                        return null;
                    }
                    return new CallTotals(
                            counts[CallOutcome.SUCCESS.ordinal()],
                            counts[CallOutcome.FAILURE.ordinal()] + counts[CallOutcome.SLOW_FAILURE.ordinal()],
                            counts[CallOutcome.SLOW_SUCCESS.ordinal()] + counts[CallOutcome.SLOW_CANCELLED.ordinal()],
                            counts[CallOutcome.IGNORED.ordinal()]);
                };
            }
        }

        @Bean
        @ConditionalOnMissingBean
        public BreakersWebEndpointExtension breakersWebEndpointExtension(BreakerOperations operations) {
            return new BreakersWebEndpointExtension(operations);
        }
    }
}
