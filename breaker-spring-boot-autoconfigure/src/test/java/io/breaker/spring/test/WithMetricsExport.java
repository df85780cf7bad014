package io.breaker.spring.test;

import org.springframework.test.context.TestPropertySource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code @SpringBootTest} that exports metrics (Prometheus included), as an application does:
 * Spring Boot's test support switches export off unless asked. Each line asks with a property of its
 * own ({@code spring.test.observability.auto-configure} on Boot 3, {@code spring.test.metrics.export}
 * on Boot 4), read from the test's environment; the other line ignores it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@TestPropertySource(properties = {"spring.test.observability.auto-configure=true", "spring.test.metrics.export=true"})
public @interface WithMetricsExport {}
