package io.breaker.benchmarks.spring.line;

import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/**
 * What the annotation benchmarks ({@code breaker-benchmarks/src/spring/java}) need that differs between
 * Spring Boot lines, for Boot 4 (resilience4j-spring-boot4, whose packages are
 * {@code io.github.resilience4j.springboot.*} instead of {@code springboot3}). {@code breaker-benchmarks}
 * has a class of the same name and members for Boot 3; the shared sources compile against either.
 */
public final class BootLine {

    /** The major version of Spring Boot this jar is built for; set-up checks the class path's. */
    public static final int MAJOR = 4;

    /** resilience4j's Spring Boot module on this line. */
    public static final String RESILIENCE4J_MODULE = "resilience4j-spring-boot4";

    private BootLine() {
    }

    /**
     * resilience4j's side: Spring Boot's AOP auto-configuration (as in any application with
     * {@code spring-boot-starter-aspectj}; on Boot 4 it is still
     * {@code org.springframework.boot.autoconfigure.aop.AopAutoConfiguration}, in spring-boot-autoconfigure)
     * and resilience4j-spring-boot4's circuit breaker auto-configuration (registry, aspect, fallback
     * executor), imported and ordered together as Boot orders them.
     */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, CircuitBreakerAutoConfiguration.class})
    public static class Resilience4jAutoConfigurations {
    }
}
