package io.breaker.redis.line;

import io.breaker.redis.BreakerStoreHealthIndicator;
import io.breaker.redis.RedisStoreHealthAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

import java.util.Map;

/**
 * What breaker-redis's tests need that differs between Spring Boot lines, for Boot 3. The Boot 4
 * starter's tests have a class of the same name for Boot 4; breaker-redis's {@code src/test/java}
 * compiles against either.
 */
public final class RedisLine {

    private RedisLine() {
    }

    /** Spring Boot's Redis auto-configuration: the {@code RedisConnectionFactory} from {@code spring.data.redis.*}. */
    public static Class<?> redisAutoConfiguration() {
        return RedisAutoConfiguration.class;
    }

    /** The auto-configuration of the {@code breakerStore} health contributor on this line (breaker-redis's own). */
    public static Class<?> storeHealthAutoConfiguration() {
        return RedisStoreHealthAutoConfiguration.class;
    }

    /** The class of the {@code breakerStore} health contributor on this line. */
    public static Class<?> storeHealthIndicatorType() {
        return BreakerStoreHealthIndicator.class;
    }

    /** The packages an application without the actuator lacks. */
    public static String[] actuatorPackages() {
        return new String[] {"org.springframework.boot.actuate"};
    }

    /** This line's health indicator type, for a bean of the application's own. */
    public static Class<?> healthIndicatorType() {
        return HealthIndicator.class;
    }

    /** A health indicator of the application's own, that always answers DOWN. */
    public static Object downHealthIndicator() {
        return (HealthIndicator) () -> Health.down().build();
    }

    /** The status code an indicator answers now, such as {@code UP}. */
    public static String status(Object indicator) {
        return ((HealthIndicator) indicator).health().getStatus().getCode();
    }

    public static Map<String, Object> details(Object indicator) {
        return ((HealthIndicator) indicator).health().getDetails();
    }
}
