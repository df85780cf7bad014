package io.breaker.boot4;

import io.breaker.boot4.actuate.BreakersHealthIndicator;
import io.breaker.boot4.autoconfigure.BreakerHealthAutoConfiguration;
import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.autoconfigure.BootLineCheck;
import io.breaker.spring.test.BootLine;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;

import java.util.Map;

/** Spring Boot 4's answers to the suites' line questions (see {@link BootLine}). */
public final class Boot4Line implements BootLine.Support {

    @Override
    public int major() {
        return 4;
    }

    @Override
    public String starter() {
        return "io.breaker:breaker-spring-boot4-starter";
    }

    @Override
    public String otherStarter() {
        return "io.breaker:breaker-spring-boot-starter";
    }

    /** Jackson 3: DateTimeFeature. */
    @Override
    public String jacksonDateFeatures() {
        return "spring.jackson.datatype.datetime.";
    }

    /** Spring Boot 4: in spring-boot-reactor-netty. */
    @Override
    public String nettyWebServerFactory() {
        return "org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory";
    }

    /** Spring Boot 4: Tomcat's and Reactor Netty's reactive management context auto-configurations
     * define the same bean, and a reactive application with a management port of its own fails to start
     * when both servers are on the class path. */
    @Override
    public String tomcatReactiveManagementAutoConfiguration() {
        return "org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatReactiveManagementContextAutoConfiguration";
    }

    @Override
    public Class<? extends BootLineCheck> lineCheck() {
        return Boot4LineCheck.class;
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
        return "Boot4Line";
    }
}
