package io.breaker.spring.cloud;

import io.breaker.BreakerRegistry;
import io.breaker.spring.aop.RecordedResults;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.call.CallTimeouts;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.observation.CircuitBreakerObservationConvention;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Spring Cloud CircuitBreaker's factories on the {@link BreakerRegistry}, when spring-cloud-commons is
 * on the classpath and the breakers are on ({@code breakers.enabled}); the reactive one when Reactor
 * is there too. Each backs off when the application defines its own factory of that kind. Start-up
 * stops when resilience4j's implementation would be configured next to this one
 * ({@link SpringCloudImplementationCheck}). With an {@link ObservationRegistry} bean (Boot defines one
 * with the actuator), the calls of both factories are observed with Spring Cloud's observation names,
 * and a {@link CircuitBreakerObservationConvention} bean, if there is one, renames them. Both apply each
 * breaker's {@code record-result} ({@link RecordedResults}) to what a run returns.
 *
 * <p>It runs before Spring Cloud Commons' client auto-configuration, whose circuit breaker for HTTP
 * service client groups (Spring Framework 7) is defined only when a {@link CircuitBreakerFactory} bean
 * is already there.
 */
@AutoConfiguration(
        after = BreakerAutoConfiguration.class,
        beforeName = "org.springframework.cloud.client.CommonsClientAutoConfiguration")
@ConditionalOnClass(CircuitBreakerFactory.class)
@ConditionalOnBean(BreakerRegistry.class)
public class BreakerSpringCloudAutoConfiguration {

    @Bean
    static SpringCloudImplementationCheck breakerSpringCloudImplementationCheck(
            Environment environment, ConfigurableListableBeanFactory beanFactory) {
        return SpringCloudImplementationCheck.check(environment, beanFactory);
    }

    @Bean
    @ConditionalOnMissingBean(CircuitBreakerFactory.class)
    public BreakerCircuitBreakerFactory breakerCircuitBreakerFactory(
            BreakerRegistry registry,
            ObjectProvider<Customizer<BreakerCircuitBreakerFactory>> customizers,
            ObjectProvider<ObservationRegistry> observations,
            ObjectProvider<CircuitBreakerObservationConvention> conventions,
            ObjectProvider<RecordedResults> recordedResults,
            ObjectProvider<CallTimeouts> callTimeouts) {
        BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(
                registry,
                observations.getIfUnique(),
                conventions.getIfUnique(),
                recordedResults.getIfAvailable(() -> RecordedResults.NONE),
                callTimeouts.getIfAvailable(() -> CallTimeouts.VIRTUAL_THREADS));
        customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
        return factory;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "reactor.core.publisher.Mono")
    static class ReactiveFactoryConfiguration {

        @Bean
        @ConditionalOnMissingBean(ReactiveCircuitBreakerFactory.class)
        ReactiveBreakerCircuitBreakerFactory reactiveBreakerCircuitBreakerFactory(
                BreakerRegistry registry,
                ObjectProvider<Customizer<ReactiveBreakerCircuitBreakerFactory>> customizers,
                ObjectProvider<ObservationRegistry> observations,
                ObjectProvider<CircuitBreakerObservationConvention> conventions,
                ObjectProvider<RecordedResults> recordedResults) {
            ReactiveBreakerCircuitBreakerFactory factory = new ReactiveBreakerCircuitBreakerFactory(
                    registry,
                    observations.getIfUnique(),
                    conventions.getIfUnique(),
                    recordedResults.getIfAvailable(() -> RecordedResults.NONE));
            customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
            return factory;
        }
    }
}
