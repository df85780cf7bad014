package io.breaker.redis.test;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Imports Spring Boot's Redis auto-configuration of the line the test runs on into a test
 * application, ordered together with the application's other imported auto-configurations. The
 * class is named, as for any such annotation, in
 * {@code META-INF/spring/io.breaker.redis.test.WithRedisAutoConfiguration.imports}: each line's
 * adapter test-jar has that file.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ImportAutoConfiguration
public @interface WithRedisAutoConfiguration {}
