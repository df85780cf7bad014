package io.breaker.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/**
 * The {@link BreakerFailureAnalyzer} Spring Boot loads from {@code META-INF/spring.factories}: its one
 * constructor takes the failed application's environment, so a refused value is traced back to the
 * environment variable that set it.
 */
final class ApplicationFailureAnalyzer extends BreakerFailureAnalyzer {

    ApplicationFailureAnalyzer(@Nullable Environment environment) {
        super(environment);
    }
}
