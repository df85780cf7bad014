package io.breaker.test;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;

/**
 * The breakers of the running test, for the test's own code: force, trip, reset, move time, and read
 * what happened. Set up by {@link BreakerExtension} before each test (for a Spring test, the breakers
 * of its application context) and valid until the test ends; tests that use it do not run in
 * parallel with each other.
 */
public final class Breakers {

    private static volatile @Nullable BreakerSession current;

    private Breakers() {}

    static void begin(BreakerSession session) {
        current = session;
    }

    static void end() {
        current = null;
    }

    static @Nullable BreakerSession currentOrNull() {
        return current;
    }

    private static BreakerSession session() {
        BreakerSession session = current;
        if (session == null) {
            throw new IllegalStateException("No test's breakers: Breakers works in a test run with BreakerExtension"
                    + " (@AutoConfigureBreakers on a Spring test, @ExtendWith(BreakerExtension.class) otherwise)");
        }
        return session;
    }

    /**
     * Forces the named breaker, as an operator would: {@code OPEN} (or {@code FORCED_OPEN}) rejects
     * every call, {@code CLOSED} (or {@code FORCED_CLOSED}) lets every call pass and never trips.
     *
     * @throws IllegalArgumentException if no breaker has this name (the message lists those that exist),
     *                                  or for a state that cannot be forced
     */
    public static void force(String name, State state) {
        session().force(name, state);
    }

    /**
     * Trips the named breaker as an outage does: failed calls are recorded until it opens, so its
     * transition (cause {@code FAILURE_RATE}), log line and event are those of a real trip, and its
     * window shows the failures. Its wait starts now, on the test's clock. An OPEN breaker stays as it
     * is; a HALF_OPEN one gets a failed probe.
     *
     * @throws IllegalArgumentException if no breaker has this name
     * @throws IllegalStateException    if the breaker is forced by an operator, or cannot trip
     */
    public static void trip(String name) {
        session().trip(name);
    }

    /**
     * Every breaker back to CLOSED with a fresh window, no operator state and its configured settings,
     * as before each test; the transitions and rejections are counted from now on.
     */
    public static void reset() {
        session().resetAll();
    }

    /** Moves the test's clock forward (see {@link BreakerClock#advance(Duration)}). */
    public static BreakerClock advance(Duration duration) {
        return session().clock().advance(duration);
    }

    /** The test's clock. */
    public static BreakerClock clock() {
        return session().clock();
    }

    /** The registry of the test's breakers. */
    public static BreakerRegistry registry() {
        return session().registry();
    }

    /** The named breaker; never creates one. @throws IllegalArgumentException if it does not exist */
    public static CircuitBreaker breaker(String name) {
        return session().breaker(name);
    }

    /** Every transition of every breaker since the test began (or the last {@link #reset()}), in order. */
    public static List<Transition> transitions() {
        return session().transitions();
    }

    /** Calls the breaker rejected since the test began (or the last {@link #reset()}). */
    public static long rejected(CircuitBreaker breaker) {
        return session().rejected(breaker);
    }
}
