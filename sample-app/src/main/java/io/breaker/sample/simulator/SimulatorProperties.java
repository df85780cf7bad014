package io.breaker.sample.simulator;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The simulated wholesaler served by this app on a port of its own.
 *
 * @param enabled   whether to start it (turn it off to point {@code bookshop.wholesaler.url} at a real one)
 * @param port      the port it listens on, on loopback only
 * @param slowDelay how long it takes to answer in {@link WholesalerMode#SLOW} mode
 */
@ConfigurationProperties("bookshop.simulator")
public record SimulatorProperties(Boolean enabled, Integer port, Duration slowDelay) {

    public SimulatorProperties {
        enabled = enabled == null || enabled;
        port = port == null ? 8081 : port;
        slowDelay = slowDelay == null ? Duration.ofSeconds(2) : slowDelay;
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("bookshop.simulator.port must be in [1, 65535], was " + port);
        }
        if (slowDelay.isNegative() || slowDelay.isZero()) {
            throw new IllegalArgumentException("bookshop.simulator.slow-delay must be positive, was " + slowDelay);
        }
    }
}
