package io.breaker.redis.line;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Imports Spring Boot's Redis auto-configuration, Boot 4's class, into a test application; it is
 * ordered together with the application's other imported auto-configurations.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ImportAutoConfiguration(DataRedisAutoConfiguration.class)
public @interface WithRedisAutoConfiguration {
}
