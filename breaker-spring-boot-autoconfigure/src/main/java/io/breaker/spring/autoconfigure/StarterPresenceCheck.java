package io.breaker.spring.autoconfigure;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Stops start-up when breaker-spring-boot-autoconfigure came without a starter (for example with {@code breaker-redis}
 * alone, which brings no starter): the breakers would work, but the health
 * contributor would be silently missing. Names the starter of the running Spring Boot line.
 */
public class StarterPresenceCheck implements ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

    private static final String BOOT3_CHECK = "io.breaker.boot3.Boot3LineCheck";
    private static final String BOOT4_CHECK = "io.breaker.boot4.Boot4LineCheck";

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ClassLoader classLoader = context.getClassLoader();
        if (!ClassUtils.isPresent(BOOT3_CHECK, classLoader) && !ClassUtils.isPresent(BOOT4_CHECK, classLoader)) {
            int running = BootLineCheck.runningLine(classLoader);
            throw new MissingStarterException(BootLineCheck.artifact(running), running);
        }
    }

    /** Right after the starters' own line checks. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }

    /** No breaker starter on the class path; explained by {@link BootLineFailureAnalyzer}. */
    public static class MissingStarterException extends IllegalStateException {

        private final String rightArtifact;
        private final int running;

        MissingStarterException(String rightArtifact, int running) {
            super("No breaker starter on the class path: add " + rightArtifact + " (Spring Boot " + running + ")");
            this.rightArtifact = rightArtifact;
            this.running = running;
        }

        public String getRightArtifact() {
            return rightArtifact;
        }

        public int getRunning() {
            return running;
        }
    }
}
