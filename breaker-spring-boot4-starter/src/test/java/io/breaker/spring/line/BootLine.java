package io.breaker.spring.line;

import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.autoconfigure.BootLineCheck;
import io.breaker.spring.boot4.Boot4LineCheck;
import io.breaker.spring.boot4.actuate.BreakersHealthIndicator;
import io.breaker.spring.boot4.autoconfigure.BreakerHealthAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;

import java.util.Map;

/**
 * What the starter suite needs that differs between Spring Boot lines, for Boot 4. The Boot 3
 * starter has a class of the same name for Boot 3; the suite's tests compile against either.
 */
public final class BootLine {

    /** The major version of Spring Boot this suite runs on. */
    public static final int MAJOR = 4;
    /** The other line's starter, as its users would write it. */
    public static final String OTHER_STARTER = "io.breaker:breaker-spring-boot-starter";
    /** This line's starter. */
    public static final String STARTER = "io.breaker:breaker-spring-boot4-starter";

    /** Where this line's Jackson takes the date and duration features ({@value}: Jackson 3: DateTimeFeature). */
    public static final String JACKSON_DATE_FEATURES = "spring.jackson.datatype.datetime.";

    private BootLine() {
    }

    /** The initializer this line's starter registers. */
    public static Class<? extends BootLineCheck> lineCheck() {
        return Boot4LineCheck.class;
    }

    public static Class<?> healthAutoConfiguration() {
        return BreakerHealthAutoConfiguration.class;
    }

    /** Spring Boot's own metrics auto-configurations that bind binders to a simple registry. */
    public static Class<?>[] metricsAutoConfigurations() {
        return new Class<?>[] {MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class};
    }

    /** A health indicator of the application's own, that always answers UNKNOWN. */
    public static Object unknownHealthIndicator() {
        return (HealthIndicator) () -> Health.unknown().build();
    }

    /** The starter's adapter around a {@link BreakersHealth}. */
    public static Object breakersHealthIndicator(BreakersHealth health) {
        return new BreakersHealthIndicator(health);
    }

    /** The status code an indicator answers now, such as {@code UP}. */
    public static String status(Object indicator) {
        return ((HealthIndicator) indicator).health().getStatus().getCode();
    }

    public static Map<String, Object> details(Object indicator) {
        return ((HealthIndicator) indicator).health().getDetails();
    }
}
