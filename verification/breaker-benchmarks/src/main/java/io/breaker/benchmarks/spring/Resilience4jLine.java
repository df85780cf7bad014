package io.breaker.benchmarks.spring;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * resilience4j's side of the annotation benchmarks on the Spring Boot line of the class path: its
 * Spring Boot module is {@code resilience4j-spring-boot3} on Boot 3 and {@code resilience4j-spring-boot4}
 * (packages {@code io.github.resilience4j.springboot}) on Boot 4. As an import, it brings Spring Boot's
 * AOP auto-configuration and that module's circuit breaker auto-configuration (registry, aspect,
 * fallback executor), deferred like any auto-configuration.
 */
final class Resilience4jLine implements DeferredImportSelector {

    private static final String BOOT3_AUTO_CONFIGURATION =
            "io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration";
    private static final String BOOT4_AUTO_CONFIGURATION =
            "io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration";

    /** The major version of the Spring Boot on the class path. */
    static int bootMajor() {
        String version = SpringBootVersion.getVersion();
        if (version == null) {
            throw new IllegalStateException("Spring Boot's version is not readable from the class path");
        }
        return Integer.parseInt(version.substring(0, version.indexOf('.')));
    }

    /** resilience4j's Spring Boot module for the line of the class path. */
    static String module() {
        return bootMajor() >= 4 ? "resilience4j-spring-boot4" : "resilience4j-spring-boot3";
    }

    @Override
    public String[] selectImports(AnnotationMetadata importingClass) {
        String autoConfiguration = bootMajor() >= 4 ? BOOT4_AUTO_CONFIGURATION : BOOT3_AUTO_CONFIGURATION;
        if (!ClassUtils.isPresent(autoConfiguration, getClass().getClassLoader())) {
            throw new IllegalStateException(module() + " is not on the class path: " + autoConfiguration
                    + " is missing (build with the profile of this Spring Boot line)");
        }
        return new String[] {AopAutoConfiguration.class.getName(), autoConfiguration};
    }
}
