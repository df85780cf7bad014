package io.breaker.spring.test;

import io.breaker.spring.actuate.BreakersHealth;
import io.breaker.spring.autoconfigure.BootLineCheck;
import org.springframework.boot.SpringBootVersion;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * What the suites need that differs between Spring Boot lines, answered by the line the tests run on.
 * The suites are compiled once, against Boot 3.5; each line's starter runs them with its adapter's
 * test-jar on the class path, whose {@link Support} ({@code io.breaker.boot3.Boot3Line} or
 * {@code io.breaker.boot4.Boot4Line}) is found through {@link ServiceLoader}. Loading this class
 * fails when no line, or more than one, is on the class path, or when the Spring Boot the tests run
 * on is not the one their module was built for (the {@code breaker.spring-boot.version} the build
 * passes to the tests).
 */
public final class BootLine {

    /** The JUnit tag of a test class that needs a Boot line: its module's starter runs it. */
    public static final String TAG = "boot-line";

    private static final Support LINE = load();

    /** The major version of Spring Boot these tests run on. */
    public static final int MAJOR = LINE.major();
    /** This line's starter, as its users write it. */
    public static final String STARTER = LINE.starter();
    /** The other line's starter, as its users write it. */
    public static final String OTHER_STARTER = LINE.otherStarter();
    /** The prefix under which this line's Jackson takes the date and duration features. */
    public static final String JACKSON_DATE_FEATURES = LINE.jacksonDateFeatures();

    private BootLine() {}

    /** The class name of this line's Reactor Netty web server factory. */
    public static String nettyWebServerFactory() {
        return LINE.nettyWebServerFactory();
    }

    /**
     * The auto-configuration to exclude so that a reactive application with a management port of its own
     * starts on Reactor Netty while Tomcat is on the class path too; empty when none need be.
     */
    public static String tomcatReactiveManagementAutoConfiguration() {
        return LINE.tomcatReactiveManagementAutoConfiguration();
    }

    /** The initializer this line's starter registers. */
    public static Class<? extends BootLineCheck> lineCheck() {
        return LINE.lineCheck();
    }

    /** The auto-configuration of the {@code breakers} health contributor on this line. */
    public static Class<?> healthAutoConfiguration() {
        return LINE.healthAutoConfiguration();
    }

    /** Spring Boot's own metrics auto-configurations that bind binders to a simple registry. */
    public static Class<?>[] metricsAutoConfigurations() {
        return LINE.metricsAutoConfigurations();
    }

    /** A health indicator of the application's own, that always answers UNKNOWN. */
    public static Object unknownHealthIndicator() {
        return LINE.unknownHealthIndicator();
    }

    /** The line's adapter around a {@link BreakersHealth}. */
    public static Object breakersHealthIndicator(BreakersHealth health) {
        return LINE.breakersHealthIndicator(health);
    }

    /** The status code an indicator of this line answers now, such as {@code UP}. */
    public static String status(Object indicator) {
        return LINE.status(indicator);
    }

    /** The details an indicator of this line answers now. */
    public static Map<String, Object> details(Object indicator) {
        return LINE.details(indicator);
    }

    private static Support load() {
        List<Support> lines = ServiceLoader.load(Support.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
        if (lines.size() != 1) {
            throw new IllegalStateException("Expected one Boot line's test support on the class path, found "
                    + lines.size() + ": " + lines + " (run these tests from a starter module)");
        }
        Support line = lines.get(0);
        String running = SpringBootVersion.getVersion();
        String built = System.getProperty("breaker.spring-boot.version");
        if (built != null && !built.equals(running)) {
            throw new IllegalStateException("Built for Spring Boot " + built + " but running on " + running);
        }
        if (running == null || !running.startsWith(line.major() + ".")) {
            throw new IllegalStateException(line + " is for Spring Boot " + line.major() + ", running on " + running);
        }
        return line;
    }

    /** One Boot line's answers; each line's adapter module has one in its test-jar. */
    public interface Support {

        int major();

        String starter();

        String otherStarter();

        String jacksonDateFeatures();

        String nettyWebServerFactory();

        String tomcatReactiveManagementAutoConfiguration();

        Class<? extends BootLineCheck> lineCheck();

        Class<?> healthAutoConfiguration();

        Class<?>[] metricsAutoConfigurations();

        Object unknownHealthIndicator();

        Object breakersHealthIndicator(BreakersHealth health);

        String status(Object indicator);

        Map<String, Object> details(Object indicator);
    }
}
