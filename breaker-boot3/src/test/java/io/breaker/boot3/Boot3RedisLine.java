package io.breaker.boot3;

import io.breaker.boot3.actuate.BreakerStoreHealthIndicator;
import io.breaker.boot3.autoconfigure.RedisStoreHealthAutoConfiguration;
import io.breaker.redis.test.RedisLine;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

import java.util.Map;

/** Spring Boot 3's answers to breaker-redis's line questions (see {@link RedisLine}). */
public final class Boot3RedisLine implements RedisLine.Support {

    @Override
    public Class<?> redisAutoConfiguration() {
        return RedisAutoConfiguration.class;
    }

    @Override
    public Class<?> storeHealthAutoConfiguration() {
        return RedisStoreHealthAutoConfiguration.class;
    }

    @Override
    public Class<?> storeHealthIndicatorType() {
        return BreakerStoreHealthIndicator.class;
    }

    /** The packages an application without the actuator lacks. */
    @Override
    public String[] actuatorPackages() {
        return new String[] {"org.springframework.boot.actuate"};
    }

    @Override
    public Class<?> healthIndicatorType() {
        return HealthIndicator.class;
    }

    @Override
    public Object downHealthIndicator() {
        return (HealthIndicator) () -> Health.down().build();
    }

    @Override
    public String status(Object indicator) {
        return ((HealthIndicator) indicator).health().getStatus().getCode();
    }

    @Override
    public Map<String, Object> details(Object indicator) {
        return ((HealthIndicator) indicator).health().getDetails();
    }
}
