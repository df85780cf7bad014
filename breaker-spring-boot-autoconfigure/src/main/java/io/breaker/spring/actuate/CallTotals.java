package io.breaker.spring.actuate;

import io.breaker.CircuitBreaker;
import org.jspecify.annotations.Nullable;

/**
 * How many calls went through one breaker since it was created, by outcome. A slow call that
 * failed counts as failed; a slow call cancelled by its caller counts as slow.
 *
 * @param succeeded calls that completed within the slow-call threshold
 * @param failed    calls that failed with an exception or result counted as a failure (slow or not)
 * @param slow      calls that completed, or were cancelled, slower than the slow-call threshold
 * @param ignored   calls that failed with an exception counted neither as success nor as failure
 */
public record CallTotals(long succeeded, long failed, long slow, long ignored) {

    /**
     * Where the totals come from: counters that the calls already keep (the breaker's meters), read
     * only when the console's history takes a sample, never on the call path.
     */
    @FunctionalInterface
    public interface Source {

        /** The totals of {@code breaker} now, or {@code null} when this source has none for it. */
        @Nullable
        CallTotals of(CircuitBreaker breaker);
    }
}
