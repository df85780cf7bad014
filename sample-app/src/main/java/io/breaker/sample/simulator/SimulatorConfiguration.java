package io.breaker.sample.simulator;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Starts the simulated wholesaler unless {@code bookshop.simulator.enabled=false}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "bookshop.simulator.enabled", matchIfMissing = true)
public class SimulatorConfiguration {

    @Bean(initMethod = "start", destroyMethod = "close")
    WholesalerSimulator wholesalerSimulator(SimulatorProperties properties) {
        return new WholesalerSimulator(properties);
    }
}
