package io.breaker.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Stops start-up when a starter runs on the other Spring Boot line: each starter registers one
 * (its own line and artifact) as an application context initializer, so the check runs before any
 * bean exists and {@link BootLineFailureAnalyzer} names the artifact to use instead. Without it, the
 * Boot 3 starter on Boot 4 would start with its health contributor silently missing.
 */
public class BootLineCheck implements ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

    /** The artifact of each line, by major version of Spring Boot. */
    static final String BOOT3_STARTER = "io.breaker:breaker-spring-boot-starter";

    static final String BOOT4_STARTER = "io.breaker:breaker-spring-boot4-starter";

    /** A class that Spring Boot 4's core has and Spring Boot 3's has not. */
    private static final String BOOT4_MARKER = "org.springframework.boot.EnvironmentPostProcessor";

    private final int line;

    /** @param line the major version of Spring Boot this starter is built for: 3 or 4 */
    public BootLineCheck(int line) {
        if (line != 3 && line != 4) {
            throw new IllegalArgumentException("line must be 3 or 4, was " + line);
        }
        this.line = line;
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        int running = runningLine(context.getClassLoader());
        if (running != line) {
            throw new WrongBootLineException(artifact(line), line, artifact(running), running);
        }
    }

    /** Spring Boot's major version on this class path: 4 or 3 (4 stands for 4 and later). */
    static int runningLine(@Nullable ClassLoader classLoader) {
        return ClassUtils.isPresent(BOOT4_MARKER, classLoader) ? 4 : 3;
    }

    static String artifact(int line) {
        return line == 3 ? BOOT3_STARTER : BOOT4_STARTER;
    }

    /** First among initializers: nothing else should run on the wrong line. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
