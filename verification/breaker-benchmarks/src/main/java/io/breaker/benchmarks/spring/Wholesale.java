package io.breaker.benchmarks.spring;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What every side of the annotation benchmarks shares: the protected method's body, the fallback's
 * answer, the breaker names, and the breaker settings, written once and handed to each library as the
 * properties a user would put in {@code application.yml}.
 */
final class Wholesale {

    /** The breaker that stays CLOSED: the method never fails. */
    static final String CLOSED = "closed";
    /** The breaker tripped at set-up: every call is rejected and answered by the fallback. */
    static final String OPEN = "open";
    /** What the fallback answers; no ISBN gives it from {@link #deliveryDays}, which is at most 8. */
    static final int FALLBACK_DAYS = 14;

    static final int WINDOW_SIZE = 100;
    static final int MINIMUM_CALLS = 10;
    static final int FAILURE_RATE = 50;
    /** Long enough that the tripped breaker stays OPEN for a whole run. */
    static final Duration WAIT_IN_OPEN = Duration.ofHours(1);

    private Wholesale() {}

    /** The protected method's body: as cheap as possible, so the proxy's own cost shows. */
    static int deliveryDays(String isbn) {
        return 1 + (isbn.length() & 7);
    }

    /** {@code breakers.instances.*} for ours: a count window of 100, slow-call detection left at its default (off). */
    static Map<String, Object> ourProperties() {
        return settings("breakers.instances.");
    }

    /**
     * {@code resilience4j.circuitbreaker.instances.*}: the same settings. Slow-call detection stays at
     * resilience4j's default (60 s, 100%), which cannot be turned off.
     */
    static Map<String, Object> theirProperties() {
        return settings("resilience4j.circuitbreaker.instances.");
    }

    private static Map<String, Object> settings(String prefix) {
        Map<String, Object> properties = new HashMap<>();
        for (String name : new String[] {CLOSED, OPEN}) {
            String instance = prefix + name + ".";
            properties.put(instance + "sliding-window-type", "COUNT_BASED");
            properties.put(instance + "sliding-window-size", WINDOW_SIZE);
            properties.put(instance + "minimum-number-of-calls", MINIMUM_CALLS);
            properties.put(instance + "failure-rate-threshold", FAILURE_RATE);
            properties.put(instance + "wait-duration-in-open-state", WAIT_IN_OPEN.toSeconds() + "s");
        }
        return properties;
    }
}
