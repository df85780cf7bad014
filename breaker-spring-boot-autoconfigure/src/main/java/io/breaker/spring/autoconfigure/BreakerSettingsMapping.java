package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.spring.config.ConfiguredSettings;
import io.breaker.spring.config.MappedSettings;
import org.jspecify.annotations.Nullable;

import static io.breaker.BreakerConfig.CALL_TIMEOUT;
import static io.breaker.BreakerConfig.FAILURE_RATE_THRESHOLD;
import static io.breaker.BreakerConfig.FAULT_EXCEPTION;
import static io.breaker.BreakerConfig.FAULT_FAILURE_RATE;
import static io.breaker.BreakerConfig.FAULT_LATENCY;
import static io.breaker.BreakerConfig.FAULT_LATENCY_RATE;
import static io.breaker.BreakerConfig.IGNORE_EXCEPTIONS;
import static io.breaker.BreakerConfig.MAX_WAIT_DURATION_IN_OPEN_STATE;
import static io.breaker.BreakerConfig.MINIMUM_NUMBER_OF_CALLS;
import static io.breaker.BreakerConfig.PERMITTED_CALLS_IN_HALF_OPEN_STATE;
import static io.breaker.BreakerConfig.PROBE_LEASE;
import static io.breaker.BreakerConfig.RECORD_EXCEPTIONS;
import static io.breaker.BreakerConfig.SLIDING_WINDOW_SIZE;
import static io.breaker.BreakerConfig.SLIDING_WINDOW_TYPE;
import static io.breaker.BreakerConfig.SLOW_CALL_DURATION_THRESHOLD;
import static io.breaker.BreakerConfig.SLOW_CALL_RATE_THRESHOLD;
import static io.breaker.BreakerConfig.WAIT_DURATION_IN_OPEN_STATE;
import static io.breaker.BreakerConfig.WAIT_JITTER;
import static io.breaker.BreakerConfig.WAIT_MULTIPLIER;

/**
 * The one mapping of {@link BreakerProperties.Settings} onto the settings of
 * {@link BreakerConfig#settings()}, a type-checked line per setting. {@link BreakerRegistryFactory}
 * builds every breaker from it, and the endpoint learns from it which settings YAML sets. A setting
 * without a line here fails every start-up; a line that reads another setting's getter fails
 * {@code BreakerSettingsMappingTest}.
 */
final class BreakerSettingsMapping {

    private BreakerSettingsMapping() {}

    /** The settings {@code settings} sets; a property left unset maps to nothing. */
    static MappedSettings of(BreakerProperties.Settings settings) {
        return of(settings, null);
    }

    /**
     * The settings {@code settings} and a breaker's {@code breakers.faults.<name>} section set (the
     * fault-* settings come from that section only; {@code null} sets none of them).
     */
    static MappedSettings of(BreakerProperties.Settings settings, BreakerProperties.@Nullable Faults faults) {
        return MappedSettings.map(map -> {
            map.from(settings::getSlidingWindowType).to(SLIDING_WINDOW_TYPE);
            map.from(settings::getSlidingWindowSize).to(SLIDING_WINDOW_SIZE);
            map.from(settings::getMinimumNumberOfCalls).to(MINIMUM_NUMBER_OF_CALLS);
            map.from(settings::getFailureRateThreshold).to(FAILURE_RATE_THRESHOLD);
            map.from(settings::getSlowCallRateThreshold).to(SLOW_CALL_RATE_THRESHOLD);
            map.fromDurationOrNone(settings::slowCallDurationThresholdAsWritten).to(SLOW_CALL_DURATION_THRESHOLD);
            map.from(settings::getWaitDurationInOpenState).to(WAIT_DURATION_IN_OPEN_STATE);
            map.fromDurationOrNone(settings::maxWaitDurationInOpenStateAsWritten)
                    .to(MAX_WAIT_DURATION_IN_OPEN_STATE);
            map.from(settings::getWaitMultiplier).to(WAIT_MULTIPLIER);
            map.from(settings::getWaitJitter).to(WAIT_JITTER);
            map.from(settings::getPermittedCallsInHalfOpenState).to(PERMITTED_CALLS_IN_HALF_OPEN_STATE);
            map.from(settings::getProbeLease).to(PROBE_LEASE);
            map.fromClassNames(settings::getRecordExceptions).to(RECORD_EXCEPTIONS);
            map.fromClassNames(settings::getIgnoreExceptions).to(IGNORE_EXCEPTIONS);
            map.fromDurationOrNone(settings::callTimeoutAsWritten).to(CALL_TIMEOUT);
            map.from(() -> faults == null ? null : faults.getFailureRate()).to(FAULT_FAILURE_RATE);
            map.fromClassName(() -> faults == null ? null : faults.getException())
                    .to(FAULT_EXCEPTION);
            map.fromDurationOrNone(() -> faults == null ? null : faults.latencyAsWritten())
                    .to(FAULT_LATENCY);
            map.from(() -> faults == null ? null : faults.getLatencyRate()).to(FAULT_LATENCY_RATE);
        });
    }

    /**
     * Which settings {@code properties} sets for each breaker: in its faults section, in its own
     * section, or in the defaults.
     */
    static ConfiguredSettings configuredSettings(BreakerProperties properties) {
        return (name, setting) -> {
            BreakerProperties.Settings own = properties.getInstances().get(name);
            BreakerProperties.Faults faults = properties.getFaults().get(name);
            return (faults != null
                            && of(new BreakerProperties.Settings(), faults).sets(setting))
                    || (own != null && of(own).sets(setting))
                    || of(properties.getDefaults()).sets(setting);
        };
    }
}
