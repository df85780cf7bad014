package io.breaker.boot4.actuate;

import io.breaker.spring.actuate.BreakersHealth;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** Adapts {@link BreakersHealth} to Spring Boot 4's health contributor {@code breakers}. */
public class BreakersHealthIndicator implements HealthIndicator {

    private final BreakersHealth health;

    public BreakersHealthIndicator(BreakersHealth health) {
        this.health = health;
    }

    @Override
    public Health health() {
        BreakersHealth.Report report = health.check();
        return (report.up() ? Health.up() : Health.down())
                .withDetails(report.breakers())
                .build();
    }
}
