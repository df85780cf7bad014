package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.State;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The health of the breakers, without Spring. An open breaker means a dependency is down, not this
 * application: by default it is reported but the application stays UP, so that an outage elsewhere
 * does not get healthy instances restarted or taken out of the load balancer. Only the breakers
 * named in {@code downWhenOpen} ({@code *} for all) make the report DOWN, and only while they are
 * FORCED_OPEN, or OPEN with time left to wait.
 *
 * <p>A breaker has no timer: an OPEN breaker stays OPEN until a call arrives. An instance that a
 * readiness probe took out of the load balancer receives no call, so a breaker whose wait has
 * elapsed (ready to probe) reports UP: traffic comes back, and the next call is the probe. A
 * HALF_OPEN breaker is probing, and does not hold the instance DOWN either. Reading the health
 * changes no state.
 */
public final class BreakersHealth {

    /** In {@code downWhenOpen}, stands for every breaker. */
    public static final String ALL = "*";

    private final BreakerRegistry registry;
    private final Set<String> downWhenOpen;

    public BreakersHealth(BreakerRegistry registry, Set<String> downWhenOpen) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.downWhenOpen = Set.copyOf(downWhenOpen);
    }

    /** Reads every breaker's state now. */
    public Report check() {
        Map<String, BreakerHealth> breakers = new LinkedHashMap<>();
        boolean down = false;
        for (CircuitBreaker breaker : registry.all()) {
            State state = breaker.getState();
            long remainingWait = breaker.getRemainingWaitNanos();
            boolean readyToProbe = state == State.OPEN && remainingWait == 0L;
            boolean holdsDown = state == State.FORCED_OPEN || (state == State.OPEN && !readyToProbe);
            boolean decisive = downWhenOpen.contains(ALL) || downWhenOpen.contains(breaker.getName());
            down |= holdsDown && decisive;
            breakers.put(
                    breaker.getName(),
                    new BreakerHealth(state, readyToProbe, breaker.getMetrics().failureRate(), decisive));
        }
        return new Report(!down, breakers);
    }

    /**
     * @param up       {@code false} only when a breaker named in {@code downWhenOpen} is FORCED_OPEN,
     *                 or OPEN and still waiting
     * @param breakers each breaker's state, by name, sorted
     */
    public record Report(boolean up, Map<String, BreakerHealth> breakers) {}

    /**
     * @param state          the breaker's state
     * @param readyToProbe   OPEN with its wait elapsed: the next call will be a probe
     * @param failureRate    its failure rate in percent, or -1 while the window holds too few calls
     * @param downWhenOpen   whether this breaker makes the application DOWN while it is open and waiting
     */
    public record BreakerHealth(State state, boolean readyToProbe, float failureRate, boolean downWhenOpen) {}
}
