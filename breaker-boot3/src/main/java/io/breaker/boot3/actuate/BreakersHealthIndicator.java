package io.breaker.boot3.actuate;

import io.breaker.spring.actuate.BreakersHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** Adapts {@link BreakersHealth} to Spring Boot 3's health contributor {@code breakers}. */
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
