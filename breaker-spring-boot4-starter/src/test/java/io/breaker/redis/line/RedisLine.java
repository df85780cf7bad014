package io.breaker.redis.line;

import io.breaker.spring.boot4.actuate.BreakerStoreHealthIndicator;
import io.breaker.spring.boot4.autoconfigure.RedisStoreHealthAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.util.Map;

/**
 * What breaker-redis's tests need that differs between Spring Boot lines, for Boot 4. breaker-redis
 * has a class of the same name for Boot 3; its {@code src/test/java}, compiled here too, compiles
 * against either.
 */
public final class RedisLine {

    private RedisLine() {
    }

    /** Spring Boot's Redis auto-configuration: the {@code RedisConnectionFactory} from {@code spring.data.redis.*}. */
    public static Class<?> redisAutoConfiguration() {
        return DataRedisAutoConfiguration.class;
    }

    /** The auto-configuration of the {@code breakerStore} health contributor on this line (this starter's). */
    public static Class<?> storeHealthAutoConfiguration() {
        return RedisStoreHealthAutoConfiguration.class;
    }

    /** The class of the {@code breakerStore} health contributor on this line. */
    public static Class<?> storeHealthIndicatorType() {
        return BreakerStoreHealthIndicator.class;
    }

    /** The packages an application without the actuator lacks: Boot 4's health types are a module of their own. */
    public static String[] actuatorPackages() {
        return new String[] {"org.springframework.boot.actuate", "org.springframework.boot.health"};
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
