package io.breaker.boot3;

import io.breaker.boot3.actuate.BreakersHealthIndicator;
import io.breaker.boot3.autoconfigure.BreakerHealthAutoConfiguration;
import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.autoconfigure.BootLineCheck;
import io.breaker.spring.test.BootLine;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import java.util.Map;

/** Spring Boot 3's answers to the suites' line questions (see {@link BootLine}). */
public final class Boot3Line implements BootLine.Support {

    @Override
    public int major() {
        return 3;
    }

    @Override
    public String starter() {
        return "io.breaker:breaker-spring-boot-starter";
    }

    @Override
    public String otherStarter() {
        return "io.breaker:breaker-spring-boot4-starter";
    }

    /** Jackson 2: SerializationFeature. */
    @Override
    public String jacksonDateFeatures() {
        return "spring.jackson.serialization.";
    }

    /** Spring Boot 3: in spring-boot itself. */
    @Override
    public String nettyWebServerFactory() {
        return "org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory";
    }

    /** Spring Boot 3: none; the management context of a reactive application takes the server factory
     * it finds. */
    @Override
    public String tomcatReactiveManagementAutoConfiguration() {
        return "";
    }

    @Override
    public Class<? extends BootLineCheck> lineCheck() {
        return Boot3LineCheck.class;
    }

    @Override
    public Class<?> healthAutoConfiguration() {
        return BreakerHealthAutoConfiguration.class;
    }

    @Override
    public Class<?>[] metricsAutoConfigurations() {
        return new Class<?>[] {
            MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class,
            SimpleMetricsExportAutoConfiguration.class
        };
    }

    @Override
    public Object unknownHealthIndicator() {
        return (HealthIndicator) () -> Health.unknown().build();
    }

    @Override
    public Object breakersHealthIndicator(BreakersHealth health) {
        return new BreakersHealthIndicator(health);
    }

    @Override
    public String status(Object indicator) {
        return ((HealthIndicator) indicator).health().getStatus().getCode();
    }

    @Override
    public Map<String, Object> details(Object indicator) {
        return ((HealthIndicator) indicator).health().getDetails();
    }

    @Override
    public String toString() {
        return "Boot3Line";
    }
}
