package io.breaker.sample.line;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code @SpringBootTest} that exports metrics as the application does (tests switch export off
 * unless asked; {@code /actuator/prometheus} needs it): Boot 4.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@AutoConfigureMetrics
public @interface WithMetricsExport {
}
