package io.breaker.sample;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * These tests run on each Boot line (sample-app on Boot 3, sample-app-boot4 on Boot 4, from the same
 * test classes): each build runs them on the Spring Boot its POM names, not on whatever its
 * dependency management let in.
 */
class BootLineTest {

    @Test
    void runsOnTheSpringBootLineOfItsBuild() {
        String built = System.getProperty("breaker.spring-boot.version");
        assertThat(built)
                .as("the build passes breaker.spring-boot.version to the tests")
                .isNotBlank();
        assertThat(SpringBootVersion.getVersion()).isEqualTo(built);
    }
}
