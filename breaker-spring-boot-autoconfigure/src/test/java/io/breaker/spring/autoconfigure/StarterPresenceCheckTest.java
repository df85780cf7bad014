package io.breaker.spring.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * This module's tests have no starter on their class path: exactly the application that declared
 * breaker-redis alone. Its start-up stops and names the Boot 3 starter (these tests run on Boot 3.5).
 * The starters' suites start applications with a starter, which pass this check.
 */
@ExtendWith(OutputCaptureExtension.class)
class StarterPresenceCheckTest {

    @Configuration(proxyBeanMethods = false)
    static class App {}

    @Test
    void withoutAStarterStartUpStopsAndNamesTheStarterOfTheRunningLine(CapturedOutput output) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        assertThatThrownBy(application::run).isInstanceOf(StarterPresenceCheck.MissingStarterException.class);

        assertThat(output)
                .contains(
                        "APPLICATION FAILED TO START",
                        "breaker-spring-boot-autoconfigure is on the class path without a breaker starter",
                        "Add io.breaker:breaker-spring-boot-starter, the starter for Spring Boot 3,");
    }
}
