package io.breaker.boot4;

import io.breaker.boot4.actuate.BreakerStoreHealthIndicator;
import io.breaker.boot4.autoconfigure.RedisStoreHealthAutoConfiguration;
import io.breaker.redis.test.RedisLine;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.util.Map;

/** Spring Boot 4's answers to breaker-redis's line questions (see {@link RedisLine}). */
public final class Boot4RedisLine implements RedisLine.Support {

    @Override
    public Class<?> redisAutoConfiguration() {
        return DataRedisAutoConfiguration.class;
    }

    @Override
    public Class<?> storeHealthAutoConfiguration() {
        return RedisStoreHealthAutoConfiguration.class;
    }

    @Override
    public Class<?> storeHealthIndicatorType() {
        return BreakerStoreHealthIndicator.class;
    }

    /** The packages an application without the actuator lacks: Boot 4's health types are a module of their own. */
    @Override
    public String[] actuatorPackages() {
        return new String[] {"org.springframework.boot.actuate", "org.springframework.boot.health"};
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
