package io.breaker.spring.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operators' console ({@code breakers.console.*}): a page under the {@code breakers} endpoint's
 * path, {@code /actuator/breakers/console}.
 */
@ConfigurationProperties("breakers.console")
public class BreakerConsoleProperties {

    /**
     * Whether to serve the console page at /actuator/breakers/console (needs the breakers endpoint
     * exposed over HTTP, on Spring MVC or WebFlux); secured exactly like the endpoint.
     */
    private boolean enabled = false;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
