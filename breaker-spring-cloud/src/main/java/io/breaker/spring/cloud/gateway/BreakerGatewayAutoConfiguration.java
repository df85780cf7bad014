package io.breaker.spring.cloud.gateway;

import io.breaker.spring.cloud.BreakerSpringCloudAutoConfiguration;
import io.breaker.spring.cloud.ReactiveBreakerCircuitBreakerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.config.conditional.ConditionalOnEnabledFilter;
import org.springframework.cloud.gateway.filter.factory.FallbackHeadersGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.DispatcherHandler;

/**
 * Spring Cloud Gateway's circuit-breaker filter on breaker's breakers: on WebFlux, the route filter
 * {@code CircuitBreaker} ({@link BreakerGatewayFilterFactory}) when the reactive factory of
 * {@link BreakerSpringCloudAutoConfiguration} is there, unless the application defines its own, and
 * Gateway's {@code FallbackHeaders} filter, which Gateway itself registers only next to resilience4j;
 * on Server MVC, the filter functions of {@link BreakerFilterFunctions} for routes in properties.
 */
@AutoConfiguration(after = BreakerSpringCloudAutoConfiguration.class)
public class BreakerGatewayAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory",
                "org.springframework.web.reactive.DispatcherHandler"
            })
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnBean(ReactiveBreakerCircuitBreakerFactory.class)
    static class WebFluxGatewayConfiguration {

        @Bean
        @ConditionalOnMissingBean(SpringCloudCircuitBreakerFilterFactory.class)
        BreakerGatewayFilterFactory breakerGatewayFilterFactory(
                ReactiveBreakerCircuitBreakerFactory factory, ObjectProvider<DispatcherHandler> dispatcherHandler) {
            return new BreakerGatewayFilterFactory(factory, dispatcherHandler);
        }

        /**
         * The route filter {@code FallbackHeaders}: on the route a {@code fallbackUri} forwards to, it adds
         * the failure the breaker's filter saw to the forwarded request's headers. Gateway defines it
         * only with resilience4j; {@code spring.cloud.gateway.server.webflux.filter.fallback-headers.enabled=false}
         * turns it off, as Gateway's own.
         */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnEnabledFilter
        FallbackHeadersGatewayFilterFactory fallbackHeadersGatewayFilterFactory() {
            return new FallbackHeadersGatewayFilterFactory();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.cloud.gateway.server.mvc.filter.FilterSupplier")
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnBean(type = "org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory")
    static class ServerMvcGatewayConfiguration {

        @Bean
        @ConditionalOnMissingBean
        BreakerFilterFunctions.FilterSupplier breakerFilterFunctionsSupplier() {
            return new BreakerFilterFunctions.FilterSupplier();
        }
    }
}
