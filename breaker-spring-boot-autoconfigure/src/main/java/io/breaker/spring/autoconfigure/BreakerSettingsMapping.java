package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.spring.config.ConfiguredSettings;
import io.breaker.spring.config.MappedSettings;

import static io.breaker.BreakerConfig.CALL_TIMEOUT;
import static io.breaker.BreakerConfig.FAILURE_RATE_THRESHOLD;
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
        return MappedSettings.map(map -> {
            map.from(settings::getSlidingWindowType).to(SLIDING_WINDOW_TYPE);
            map.from(settings::getSlidingWindowSize).to(SLIDING_WINDOW_SIZE);
            map.from(settings::getMinimumNumberOfCalls).to(MINIMUM_NUMBER_OF_CALLS);
            map.from(settings::getFailureRateThreshold).to(FAILURE_RATE_THRESHOLD);
            map.from(settings::getSlowCallRateThreshold).to(SLOW_CALL_RATE_THRESHOLD);
            map.from(settings::getSlowCallDurationThreshold).to(SLOW_CALL_DURATION_THRESHOLD);
            map.from(settings::getWaitDurationInOpenState).to(WAIT_DURATION_IN_OPEN_STATE);
            map.from(settings::getMaxWaitDurationInOpenState).to(MAX_WAIT_DURATION_IN_OPEN_STATE);
            map.from(settings::getWaitMultiplier).to(WAIT_MULTIPLIER);
            map.from(settings::getWaitJitter).to(WAIT_JITTER);
            map.from(settings::getPermittedCallsInHalfOpenState).to(PERMITTED_CALLS_IN_HALF_OPEN_STATE);
            map.from(settings::getProbeLease).to(PROBE_LEASE);
            map.fromClassNames(settings::getRecordExceptions).to(RECORD_EXCEPTIONS);
            map.fromClassNames(settings::getIgnoreExceptions).to(IGNORE_EXCEPTIONS);
            map.from(settings::getCallTimeout).to(CALL_TIMEOUT);
        });
    }

    /** Which settings {@code properties} sets for each breaker: in the breaker's own section, or in the defaults. */
    static ConfiguredSettings configuredSettings(BreakerProperties properties) {
        return (name, setting) -> {
            BreakerProperties.Settings own = properties.getInstances().get(name);
            return (own != null && of(own).sets(setting))
                    || of(properties.getDefaults()).sets(setting);
        };
    }
}
