package io.breaker.redis.test;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * What breaker-redis's tests need that differs between Spring Boot lines, answered by the line they
 * run on: each line's adapter module has a {@link Support} in its test-jar
 * ({@code io.breaker.boot3.Boot3RedisLine}, {@code io.breaker.boot4.Boot4RedisLine}), found through
 * {@link ServiceLoader}. The tests that use it are tagged {@code boot-line} and run by each line's
 * starter.
 */
public final class RedisLine {

    private static final Support LINE = load();

    private RedisLine() {}

    /** Spring Boot's Redis auto-configuration: the {@code RedisConnectionFactory} from {@code spring.data.redis.*}. */
    public static Class<?> redisAutoConfiguration() {
        return LINE.redisAutoConfiguration();
    }

    /** The auto-configuration of the {@code breakerStore} health contributor on this line. */
    public static Class<?> storeHealthAutoConfiguration() {
        return LINE.storeHealthAutoConfiguration();
    }

    /** The class of the {@code breakerStore} health contributor on this line. */
    public static Class<?> storeHealthIndicatorType() {
        return LINE.storeHealthIndicatorType();
    }

    /** The packages an application without the actuator lacks. */
    public static String[] actuatorPackages() {
        return LINE.actuatorPackages();
    }

    /** This line's health indicator type, for a bean of the application's own. */
    public static Class<?> healthIndicatorType() {
        return LINE.healthIndicatorType();
    }

    /** A health indicator of the application's own, that always answers DOWN. */
    public static Object downHealthIndicator() {
        return LINE.downHealthIndicator();
    }

    /** The status code an indicator answers now, such as {@code UP}. */
    public static String status(Object indicator) {
        return LINE.status(indicator);
    }

    /** The details an indicator answers now. */
    public static Map<String, Object> details(Object indicator) {
        return LINE.details(indicator);
    }

    private static Support load() {
        List<Support> lines = ServiceLoader.load(Support.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
        if (lines.size() != 1) {
            throw new IllegalStateException("Expected one Boot line's Redis test support on the class path, found "
                    + lines.size() + ": " + lines + " (run these tests from a starter module)");
        }
        return lines.get(0);
    }

    /** One Boot line's answers. */
    public interface Support {

        Class<?> redisAutoConfiguration();

        Class<?> storeHealthAutoConfiguration();

        Class<?> storeHealthIndicatorType();

        String[] actuatorPackages();

        Class<?> healthIndicatorType();

        Object downHealthIndicator();

        String status(Object indicator);

        Map<String, Object> details(Object indicator);
    }
}
