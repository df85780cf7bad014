package io.breaker.spring.actuate;

/**
 * What a change made through this instance did to the fleet, for a breaker shared through a store:
 * shown as {@code fleetChanged} in the endpoint's answers and audit lines.
 */
public enum FleetChange {

    /** The store answered: the fleet changed. */
    CHANGED(Boolean.TRUE),
    /** The store answered: the fleet did not change (it already was so, or the change stayed on this instance). */
    UNCHANGED(Boolean.FALSE),
    /**
     * The store was asked but did not answer in time: the change may have reached it (and then the
     * fleet applies it) or not (then the fleet's settings win on this instance when it next reads them).
     */
    UNKNOWN("unknown");

    private final Object shown;

    FleetChange(Object shown) {
        this.shown = shown;
    }

    /** As answers show it: {@code true}, {@code false} or {@code "unknown"}. */
    public Object shown() {
        return shown;
    }

    /** As audit lines show it. */
    @Override
    public String toString() {
        return shown.toString();
    }
}
