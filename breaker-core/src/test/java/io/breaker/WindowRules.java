package io.breaker;

/** The settings a window is made from, for the window tests: its type and size, minimum and thresholds. */
final class WindowRules {

    private WindowRules() {}

    static BreakerConfig of(
            SlidingWindowType type,
            int size,
            int minimumNumberOfCalls,
            float failureRateThreshold,
            float slowCallRateThreshold) {
        return BreakerConfig.builder()
                .slidingWindow(type, size)
                .minimumNumberOfCalls(minimumNumberOfCalls)
                .failureRateThreshold(failureRateThreshold)
                .slowCallRateThreshold(slowCallRateThreshold)
                .build();
    }
}
