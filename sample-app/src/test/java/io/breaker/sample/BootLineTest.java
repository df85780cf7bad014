package io.breaker.sample;

import io.breaker.sample.line.BootLine;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * These tests are compiled twice, in sample-app (Boot 3) and sample-app-boot4 (Boot 4): each build
 * runs them on the Spring Boot line its seam says, not on whatever its dependency management let in.
 */
class BootLineTest {

    @Test
    void runsOnTheSpringBootLineOfItsBuild() {
        assertThat(SpringBootVersion.getVersion()).startsWith(BootLine.MAJOR + ".");
    }
}
