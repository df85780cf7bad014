package io.breaker.spring.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A breaker's recent history, as the console draws it.
 *
 * @param at       when this read was made (the registry's wall clock): the console counts the time to
 *                 the next probe from it, so that a browser's clock does not matter
 * @param spacing  the least time between two samples
 * @param capacity the most samples kept; a new one then replaces the oldest
 * @param samples  the samples kept, oldest first
 */
public record ActivityDescriptor(Instant at, Duration spacing, int capacity, List<ActivitySample> samples) {}
