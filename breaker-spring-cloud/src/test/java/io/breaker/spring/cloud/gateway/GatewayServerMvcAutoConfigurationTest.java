package io.breaker.spring.cloud.gateway;

import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.cloud.BreakerSpringCloudAutoConfiguration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The conditions of {@link BreakerGatewayAutoConfiguration} on Server MVC, and the filter's refusals. */
@Tag("boot-line")
class GatewayServerMvcAutoConfigurationTest {

    private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(
            BreakerAutoConfiguration.class,
            BreakerSpringCloudAutoConfiguration.class,
            BreakerGatewayAutoConfiguration.class);

    private final WebApplicationContextRunner runner =
            new WebApplicationContextRunner().withConfiguration(CONFIGURATIONS);

    @Test
    void theFilterSupplierForRoutesInPropertiesIsThereInAServletApplicationWithGateway() {
        runner.run(context -> assertThat(context).hasSingleBean(BreakerFilterFunctions.FilterSupplier.class));
    }

    @Test
    void noneWithoutGatewayServerMvc() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.cloud.gateway.server.mvc"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(BreakerFilterFunctions.FilterSupplier.class);
                });
    }

    @Test
    void noneWhenBreakersAreOff() {
        runner.withPropertyValues("breakers.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(BreakerFilterFunctions.FilterSupplier.class);
        });
    }

    @Test
    void noneInAReactiveApplication() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(CONFIGURATIONS)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(BreakerFilterFunctions.FilterSupplier.class);
                });
    }

    @Test
    void aFilterWithoutIdWithAFallbackThatIsNoForwardOrWithAStatusThatIsNoneIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerFilterFunctions.circuitBreaker(config -> {}))
                .withMessageContaining("name the breaker (args: id)");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerFilterFunctions.circuitBreaker(
                        config -> config.setId("backend").setFallbackUri("http://elsewhere/fallback")))
                .withMessageContaining("'http://elsewhere/fallback' is no forward:/path");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerFilterFunctions.circuitBreaker("backend", "fallback"))
                .withMessageContaining("must start with '/'");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerFilterFunctions.circuitBreaker(
                        config -> config.setId("backend").setStatusCodes("500", "SERVER_ERROR")))
                .withMessageStartingWith("circuitBreaker filter 'backend': statusCodes entry 'SERVER_ERROR'");
    }
}
