package io.breaker.sample.line;

import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code @SpringBootTest} that exports metrics as the application does (tests switch export off
 * unless asked; {@code /actuator/prometheus} needs it): Boot 3.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@AutoConfigureObservability(tracing = false)
public @interface WithMetricsExport {
}
