package io.breaker.benchmarks.engine;

import io.breaker.BreakerConfig;
import io.breaker.SlidingWindowType;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

import java.time.Duration;

/**
 * Builds the two breakers' configs from the same settings, so that every benchmark compares
 * breakers configured alike. Everything not set here is the library's default.
 */
public final class Alike {

    /** Calls needed before a rate is evaluated; the same for both libraries (resilience4j's default is 100). */
    public static final int MINIMUM_CALLS = 10;

    static final float FAILURE_RATE = 50f;
    /** When slow-call detection is on: calls of 2 s or more are slow, and 80% slow calls trip. */
    static final Duration SLOW_CALL = Duration.ofSeconds(2);

    static final float SLOW_CALL_RATE = 80f;
    /** Long enough that an OPEN breaker stays OPEN for a whole benchmark run. */
    public static final Duration LONG_WAIT = Duration.ofHours(1);

    /** The windows under test: the last 100 calls, or the last 10 seconds. */
    public enum Window {
        COUNT_100(SlidingWindowType.COUNT_BASED, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED, 100),
        TIME_10S(SlidingWindowType.TIME_BASED, CircuitBreakerConfig.SlidingWindowType.TIME_BASED, 10);

        final SlidingWindowType ours;
        final CircuitBreakerConfig.SlidingWindowType theirs;
        final int size;

        Window(SlidingWindowType ours, CircuitBreakerConfig.SlidingWindowType theirs, int size) {
            this.ours = ours;
            this.theirs = theirs;
            this.size = size;
        }
    }

    /**
     * Slow-call detection. resilience4j cannot turn it off (its default is 60 s and 100%, and it always
     * times the call), so OFF leaves it at its defaults; ours then times nothing.
     */
    public enum SlowCalls {
        ON,
        OFF
    }

    private Alike() {}

    public static BreakerConfig ours(Window window, SlowCalls slowCalls, Duration wait) {
        BreakerConfig.Builder builder = BreakerConfig.builder()
                .slidingWindow(window.ours, window.size)
                .minimumNumberOfCalls(MINIMUM_CALLS)
                .failureRateThreshold(FAILURE_RATE)
                .waitDurationInOpenState(wait);
        if (slowCalls == SlowCalls.ON) {
            builder.slowCallDurationThreshold(SLOW_CALL).slowCallRateThreshold(SLOW_CALL_RATE);
        }
        return builder.build();
    }

    static CircuitBreakerConfig.Builder theirs(Window window, SlowCalls slowCalls, Duration wait) {
        CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.custom()
                .slidingWindow(window.size, MINIMUM_CALLS, window.theirs)
                .failureRateThreshold(FAILURE_RATE)
                .waitDurationInOpenState(wait);
        if (slowCalls == SlowCalls.ON) {
            builder.slowCallDurationThreshold(SLOW_CALL).slowCallRateThreshold(SLOW_CALL_RATE);
        }
        return builder;
    }

    /** resilience4j's default window, which takes a lock per recorded call. */
    public static CircuitBreakerConfig theirsDefault(Window window, SlowCalls slowCalls, Duration wait) {
        return theirs(window, slowCalls, wait).build();
    }

    /**
     * Failsafe's breaker, as close as it gets: count window, 50 failures out of the last 100
     * executions (Failsafe has no minimum number of calls for a count window, so it needs 50
     * failures to trip where the others need 5 of 10); time window, 50% of at least 10 executions in
     * the last 10 seconds. Failsafe has no slow-call detection and never reads the clock on the
     * CLOSED path.
     */
    static dev.failsafe.CircuitBreaker<Integer> failsafe(Window window, Duration wait) {
        dev.failsafe.CircuitBreakerBuilder<Integer> builder =
                dev.failsafe.CircuitBreaker.<Integer>builder().withDelay(wait);
        if (window == Window.COUNT_100) {
            builder.withFailureThreshold((int) (FAILURE_RATE * window.size / 100), window.size);
        } else {
            builder.withFailureRateThreshold((int) FAILURE_RATE, MINIMUM_CALLS, Duration.ofSeconds(window.size));
        }
        return builder.build();
    }

    /** Records failures until Failsafe's breaker opens (it has no minimum number of calls). */
    static void tripFailsafe(dev.failsafe.CircuitBreaker<Integer> breaker) {
        for (int i = 0; i < 1_000 && !breaker.isOpen(); i++) {
            breaker.tryAcquirePermit();
            breaker.recordFailure();
        }
        if (!breaker.isOpen()) {
            throw new IllegalStateException("Failsafe's breaker did not open");
        }
    }
}
