package io.breaker.spring.cloud.gateway;

import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.cloud.BreakerSpringCloudAutoConfiguration;
import io.breaker.spring.cloud.ReactiveBreakerCircuitBreakerFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.cloud.gateway.filter.factory.FallbackHeadersGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.DispatcherHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The conditions of {@link BreakerGatewayAutoConfiguration} on WebFlux, and the filter's refusals. */
@Tag("boot-line")
class GatewayWebFluxAutoConfigurationTest {

    private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(
            BreakerAutoConfiguration.class,
            BreakerSpringCloudAutoConfiguration.class,
            BreakerGatewayAutoConfiguration.class);

    private final ReactiveWebApplicationContextRunner runner =
            new ReactiveWebApplicationContextRunner().withConfiguration(CONFIGURATIONS);

    @Test
    void theCircuitBreakerRouteFilterIsOursInAReactiveApplicationWithGateway() {
        runner.run(context -> assertThat(context)
                .getBean(SpringCloudCircuitBreakerFilterFactory.class)
                .isInstanceOf(BreakerGatewayFilterFactory.class));
    }

    @Test
    void gatewaysFallbackHeadersFilterIsThereWithoutResilience4jUnlessTurnedOff() {
        runner.run(context -> assertThat(context).hasSingleBean(FallbackHeadersGatewayFilterFactory.class));
        runner.withPropertyValues("spring.cloud.gateway.server.webflux.filter.fallback-headers.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(FallbackHeadersGatewayFilterFactory.class);
                });
    }

    @Test
    void anApplicationsOwnFilterFactoryWins() {
        runner.withUserConfiguration(OwnFilterFactory.class).run(context -> {
            assertThat(context).hasSingleBean(SpringCloudCircuitBreakerFilterFactory.class);
            assertThat(context).doesNotHaveBean(BreakerGatewayFilterFactory.class);
        });
    }

    @Test
    void noneWithoutGateway() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.cloud.gateway"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(ReactiveBreakerCircuitBreakerFactory.class);
                    assertThat(context).doesNotHaveBean(BreakerGatewayFilterFactory.class);
                });
    }

    @Test
    void noneWhenBreakersAreOff() {
        runner.withPropertyValues("breakers.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(BreakerGatewayFilterFactory.class);
        });
    }

    @Test
    void noneOutsideAReactiveWebApplication() {
        new ApplicationContextRunner().withConfiguration(CONFIGURATIONS).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(BreakerGatewayFilterFactory.class);
        });
    }

    @Test
    void aRouteWithoutABreakerNameOrWithAStatusThatIsNoneIsRefusedByName() {
        runner.run(context -> {
            BreakerGatewayFilterFactory factory = context.getBean(BreakerGatewayFilterFactory.class);

            SpringCloudCircuitBreakerFilterFactory.Config unnamed = new SpringCloudCircuitBreakerFilterFactory.Config();
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> factory.apply(unnamed))
                    .withMessageContaining("name the breaker");

            SpringCloudCircuitBreakerFilterFactory.Config series = new SpringCloudCircuitBreakerFilterFactory.Config();
            series.setRouteId("books");
            series.setName("backend").addStatusCode("5xx");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> factory.apply(series))
                    .withMessageStartingWith("CircuitBreaker filter of route 'books': statusCodes entry '5xx'");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFilterFactory {

        @Bean
        SpringCloudCircuitBreakerFilterFactory ownFilterFactory(
                ReactiveBreakerCircuitBreakerFactory factory, ObjectProvider<DispatcherHandler> dispatcherHandler) {
            return new SpringCloudCircuitBreakerFilterFactory(factory, dispatcherHandler) {
                @Override
                protected reactor.core.publisher.Mono<Void> handleErrorWithoutFallback(
                        Throwable error, boolean resumeWithoutError) {
                    return reactor.core.publisher.Mono.error(error);
                }
            };
        }
    }
}
