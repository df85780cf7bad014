package io.breaker.benchmarks.spring;

import org.springframework.boot.SpringBootVersion;

/**
 * Prints which line this jar runs the annotation benchmarks on, for a run's record: the Spring Boot
 * version on the class path and resilience4j's module of the line, e.g.
 * {@code Spring Boot 4.0.7, resilience4j-spring-boot4}.
 */
public final class LineVersions {

    private LineVersions() {}

    public static void main(String[] args) {
        System.out.println("Spring Boot " + SpringBootVersion.getVersion() + ", " + Resilience4jLine.module());
    }
}
