package io.breaker.benchmarks.redis;

import io.breaker.BreakerConfig;
import io.breaker.SlidingWindowType;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

import java.time.Duration;

/**
 * The one set of breaker settings every benchmark of this package uses, for the in-memory breaker,
 * the Redis-backed one and resilience4j alike: the last 100 calls, rates evaluated from 10 calls,
 * 50% failures trip, a wait long enough that nothing reopens during a run, no slow-call detection
 * (resilience4j cannot turn it off: it keeps its defaults). These are the values of the engine
 * benchmarks' {@code COUNT_100} / {@code OFF} case, so the numbers can be read side by side.
 */
final class SameSettings {

    static final int WINDOW_SIZE = 100;
    static final int MINIMUM_CALLS = 10;
    static final float FAILURE_RATE = 50f;
    static final Duration WAIT = Duration.ofHours(1);

    private SameSettings() {}

    static BreakerConfig ours() {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, WINDOW_SIZE)
                .minimumNumberOfCalls(MINIMUM_CALLS)
                .failureRateThreshold(FAILURE_RATE)
                .waitDurationInOpenState(WAIT)
                .build();
    }

    static CircuitBreakerConfig theirs() {
        return CircuitBreakerConfig.custom()
                .slidingWindow(WINDOW_SIZE, MINIMUM_CALLS, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(FAILURE_RATE)
                .waitDurationInOpenState(WAIT)
                .build();
    }
}
