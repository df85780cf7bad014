package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.SlidingWindowType;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;

/**
 * A breaker's effective settings (defaults, YAML and customizers applied), as the {@code breakers}
 * endpoint shows them. Durations are {@link Duration}s, which the actuator's own serializer writes
 * as ISO-8601 ({@code PT30S}) whatever the application's Jackson settings.
 *
 * @param slidingWindowType             {@code COUNT_BASED} or {@code TIME_BASED}
 * @param slidingWindowSize             calls (count-based) or seconds (time-based)
 * @param minimumNumberOfCalls          calls the window must hold before a rate is evaluated
 * @param failureRateThreshold          failure rate, in percent, at which the breaker opens
 * @param slowCallRateThreshold         slow-call rate, in percent, at which the breaker opens
 * @param slowCallDurationThreshold     duration from which a call is slow, or {@code null} when slow-call detection is off
 * @param waitDurationInOpenState       how long the breaker stays OPEN before a probe
 * @param maxWaitDurationInOpenState    the longest a Retry-After or the backoff may keep it OPEN (unset: 10 minutes,
 *                                      or the wait if longer)
 * @param waitMultiplier                what each failed probe multiplies the next wait by (1: no backoff)
 * @param waitJitter                    share of each wait taken off at random (0: none)
 * @param permittedCallsInHalfOpenState probes let through in HALF_OPEN
 * @param probeLease                    how long a probe may stay unreported before another caller takes its permit
 * @param recordExceptions              class names of exceptions that count as failures (empty: all that are not ignored)
 * @param ignoreExceptions              class names of exceptions that count neither way
 * @param recordFailurePredicate        whether a predicate in code also decides what counts as a failure
 * @param callTimeout                   how long a protected call may run before it is given up, or {@code null} for no timeout
 */
public record BreakerConfigDescriptor(
        SlidingWindowType slidingWindowType,
        int slidingWindowSize,
        int minimumNumberOfCalls,
        float failureRateThreshold,
        float slowCallRateThreshold,
        @Nullable Duration slowCallDurationThreshold,
        Duration waitDurationInOpenState,
        Duration maxWaitDurationInOpenState,
        float waitMultiplier,
        float waitJitter,
        int permittedCallsInHalfOpenState,
        Duration probeLease,
        List<String> recordExceptions,
        List<String> ignoreExceptions,
        boolean recordFailurePredicate,
        @Nullable Duration callTimeout) {

    static BreakerConfigDescriptor of(BreakerConfig config) {
        return new BreakerConfigDescriptor(
                config.getSlidingWindowType(),
                config.getSlidingWindowSize(),
                config.getMinimumNumberOfCalls(),
                config.getFailureRateThreshold(),
                config.getSlowCallRateThreshold(),
                config.getSlowCallDurationThreshold(),
                config.getWaitDurationInOpenState(),
                config.longestWaitInOpenState(),
                config.getWaitMultiplier(),
                config.getWaitJitter(),
                config.getPermittedCallsInHalfOpenState(),
                config.getProbeLease(),
                names(config.getRecordExceptions()),
                names(config.getIgnoreExceptions()),
                config.getRecordFailurePredicate() != null,
                config.getCallTimeout());
    }

    private static List<String> names(List<Class<? extends Throwable>> types) {
        return types.stream().map(Class::getName).toList();
    }
}
