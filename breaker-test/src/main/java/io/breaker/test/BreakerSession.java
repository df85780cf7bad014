package io.breaker.test;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One test's view of a registry: its clock, the transitions and rejections since the test began, and
 * the operations of {@link Breakers}.
 */
final class BreakerSession {

    /** What {@link #trip} records as the failures' type: the breaker's last failure type says who tripped it. */
    static final String TRIP_FAILURE_TYPE = "io.breaker.test.Breakers.trip";
    /** More failures than any window needs to trip at a threshold below 100% of calls. */
    private static final int MAX_TRIP_FAILURES = 1_000_000;

    private final BreakerRegistry registry;
    private final BreakerClock clock;
    private final TransitionRecorder recorder;
    private final Map<String, Long> rejectedAtStart = new ConcurrentHashMap<>();
    /** What else forgets the past on a reset (the endpoint's transitions and history, in a Spring test). */
    private final Runnable alsoOnReset;

    BreakerSession(BreakerRegistry registry, BreakerClock clock) {
        this(registry, clock, () -> {});
    }

    BreakerSession(BreakerRegistry registry, BreakerClock clock, Runnable alsoOnReset) {
        this.registry = registry;
        this.clock = clock;
        this.recorder = TransitionRecorder.of(registry);
        this.alsoOnReset = alsoOnReset;
    }

    BreakerRegistry registry() {
        return registry;
    }

    BreakerClock clock() {
        return clock;
    }

    /**
     * Every breaker back to CLOSED with a fresh window and its configured settings; the transitions and
     * rejections counted from now on.
     */
    void resetAll() {
        for (CircuitBreaker breaker : registry.all()) {
            reset(breaker);
        }
        recorder.clear();
        alsoOnReset.run();
    }

    private void reset(CircuitBreaker breaker) {
        if (breaker.getState() != State.CLOSED) {
            breaker.release();
        }
        BreakerConfig configured = registry.configuredNames().contains(breaker.getName())
                ? registry.configFor(breaker.getName())
                : breaker.getConfig();
        breaker.reconfigure(configured); // a fresh window, and the settings an operator may have changed
        rejectedAtStart.put(breaker.getName(), breaker.getMetrics().notPermittedCalls());
    }

    CircuitBreaker breaker(String name) {
        return registry.find(name)
                .orElseThrow(() -> new IllegalArgumentException("No breaker named '" + name + "'; the breakers are "
                        + registry.all().stream().map(CircuitBreaker::getName).toList()
                        + " (a breaker exists once configured under breakers.instances, used by a"
                        + " @CircuitProtected method or created through the registry)"));
    }

    void force(String name, State state) {
        CircuitBreaker breaker = breaker(name);
        switch (state) {
            case OPEN, FORCED_OPEN -> breaker.forceOpen();
            case CLOSED, FORCED_CLOSED -> breaker.forceClosed();
            default ->
                throw new IllegalArgumentException("Breaker '" + name + "' cannot be forced " + state
                        + "; the states a breaker can be forced into are OPEN (FORCED_OPEN) and CLOSED (FORCED_CLOSED)."
                        + " For HALF_OPEN, trip it and advance the clock past its wait: the next call is the probe");
        }
    }

    /**
     * Records failed calls until the breaker trips, as an outage would: the transition, its log line
     * and event are those of a real trip.
     */
    void trip(String name) {
        CircuitBreaker breaker = breaker(name);
        State state = breaker.getState();
        if (state.isForced()) {
            throw new IllegalStateException("Breaker '" + name + "' is " + state
                    + " by an operator; a forced breaker does not trip (Breakers.reset() releases it)");
        }
        for (int i = 0; i < MAX_TRIP_FAILURES && breaker.getState() != State.OPEN; i++) {
            long permit = breaker.tryAcquirePermit();
            if (permit == CircuitBreaker.NO_PERMIT) {
                break; // OPEN, or HALF_OPEN with every probe out
            }
            breaker.onFailedResult(permit, 0L, TRIP_FAILURE_TYPE);
        }
        if (breaker.getState() != State.OPEN) {
            throw new IllegalStateException("Breaker '" + name + "' did not trip: it is " + breaker.getState()
                    + " after " + breaker.getMetrics() + " (a failure-rate threshold of 100% with successes still in"
                    + " a time-based window, or every probe of HALF_OPEN still out)");
        }
    }

    List<Transition> transitions() {
        return recorder.transitions();
    }

    long rejected(CircuitBreaker breaker) {
        return breaker.getMetrics().notPermittedCalls() - rejectedAtStart.getOrDefault(breaker.getName(), 0L);
    }
}
