package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * The faults a breaker injects into its calls, as the {@code breakers} endpoint shows them next to its
 * state (its entry has none while no fault is set): a rehearsal, not an outage.
 *
 * @param failureRate percentage of calls failed with {@code exception} before their method runs
 * @param exception   class name of the exception an injected failure throws
 * @param latency     latency injected before the method runs, or {@code null} for none
 * @param latencyRate percentage of calls delayed by {@code latency}
 */
public record FaultsDescriptor(
        float failureRate, String exception, @Nullable Duration latency, float latencyRate) {

    /** The faults {@code config} injects, or {@code null} when it injects none. */
    static @Nullable FaultsDescriptor of(BreakerConfig config) {
        if (!config.isFaultInjectionEnabled()) {
            return null;
        }
        return new FaultsDescriptor(
                config.getFaultFailureRate(),
                config.getFaultException().getName(),
                config.getFaultLatency(),
                config.getFaultLatencyRate());
    }
}
