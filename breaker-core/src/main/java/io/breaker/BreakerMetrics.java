package io.breaker;

/**
 * A snapshot of a breaker's numbers. Rates are percentages in [0, 100], or {@code -1} while the
 * window holds fewer calls than the configured minimum (no rate is evaluated yet).
 *
 * @param failureRate       failed calls in the window, in percent, or -1
 * @param slowCallRate      slow calls in the window, in percent, or -1
 * @param calls             calls currently in the window
 * @param failedCalls       failed calls currently in the window
 * @param slowCalls         slow calls currently in the window
 * @param notPermittedCalls calls rejected since the breaker was created
 */
public record BreakerMetrics(
        float failureRate, float slowCallRate, int calls, int failedCalls, int slowCalls, long notPermittedCalls) {}
