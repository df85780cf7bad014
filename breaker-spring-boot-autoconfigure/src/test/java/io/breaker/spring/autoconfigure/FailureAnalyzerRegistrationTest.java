package io.breaker.spring.autoconfigure;

import io.breaker.spring.CircuitProtected;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A real application start: the analyzer is registered and wins over Spring Boot's generic ones. */
@ExtendWith(OutputCaptureExtension.class)
@Tag(BootLine.TAG)
class FailureAnalyzerRegistrationTest {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, BreakerAutoConfiguration.class})
    static class App {}

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, BreakerAutoConfiguration.class})
    static class AppWithBadFallback {

        @Bean
        Shop shop() {
            return new Shop();
        }
    }

    static class Shop {
        @CircuitProtected(name = "wholesaler", fallbackMethod = "missing")
        public int deliveryDays(String isbn) {
            return 3;
        }
    }

    @Test
    void badPropertyIsExplainedAtStartUp(CapturedOutput output) {
        assertThatThrownBy(() -> start(App.class, "--breakers.instances.wholesaler.failure-rate-threshold=150"));
        assertThat(output)
                .contains("APPLICATION FAILED TO START")
                .contains(
                        "The breaker property 'breakers.instances.wholesaler.failure-rate-threshold' has the value '150'")
                .contains("a number in (0, 100]");
    }

    @Test
    void unknownWindowTypeIsExplainedByOurAnalyzerNotTheGenericOne(CapturedOutput output) {
        assertThatThrownBy(() -> start(App.class, "--breakers.defaults.sliding-window-type=COUNTED"));
        assertThat(output)
                .contains("The breaker property 'breakers.defaults.sliding-window-type' has the value 'COUNTED'")
                .contains("one of count-based, time-based");
    }

    @Test
    void aRangeFailureFromAnEnvironmentVariableNamesTheVariable(CapturedOutput output) {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("BREAKERS_INSTANCES_DEP_FAILURERATETHRESHOLD", "150")));
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setEnvironment(environment);
        assertThatThrownBy(() -> application.run().close());
        assertThat(output)
                .contains("'breakers.instances.dep.failure-rate-threshold' has the value '150'"
                        + " (from the environment variable BREAKERS_INSTANCES_DEP_FAILURERATETHRESHOLD)");
    }

    @Test
    void missingFallbackIsExplainedAtStartUp(CapturedOutput output) {
        assertThatThrownBy(() -> start(AppWithBadFallback.class));
        assertThat(output)
                .contains("@CircuitProtected on " + Shop.class.getName() + ".deliveryDays(String) is invalid")
                .contains("int missing(String)")
                .contains("int missing(String, Throwable)");
    }

    private static void start(Class<?> app, String... args) {
        SpringApplication application = new SpringApplication(app);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.run(args).close();
    }
}
