package io.breaker.spring.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * How open breakers weigh on the application's health ({@code breakers.health.*}).
 */
@ConfigurationProperties("breakers.health")
public class BreakerHealthProperties {

    /**
     * Breakers that make the application DOWN while they are FORCED_OPEN, or OPEN with time left to wait
     * (once a probe is due they report UP, so that traffic can bring the probe); '*' means every
     * breaker. By default none does: an open breaker is reported but the application stays UP.
     */
    private Set<String> downWhenOpen = new LinkedHashSet<>();

    public Set<String> getDownWhenOpen() {
        return downWhenOpen;
    }

    public void setDownWhenOpen(Set<String> downWhenOpen) {
        this.downWhenOpen = downWhenOpen;
    }
}
