package io.breaker.redis.line;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Imports Spring Boot's Redis auto-configuration, Boot 3's class, into a test application; it is
 * ordered together with the application's other imported auto-configurations.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ImportAutoConfiguration(RedisAutoConfiguration.class)
public @interface WithRedisAutoConfiguration {
}
