package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;

/**
 * What the {@code breakers} endpoint asks the store that shares breakers with other instances (for
 * example breaker-redis): whether it is reachable, and whether an operator's change reached the
 * fleet. A store module registers one bean of this type; without one, the endpoint shows shared
 * breakers with {@code store: null}.
 */
public interface SharedBreakers {

    /** The store as this instance sees it now. */
    StoreDescriptor store();

    /**
     * What this instance's last operator change of the named breaker did to the fleet's state:
     * {@link FleetChange#CHANGED} or {@link FleetChange#UNCHANGED} as the store answered it,
     * {@link FleetChange#UNKNOWN} when the store was asked but did not answer in time, {@code null}
     * when the store was not asked (known to be unreachable: only the local copy changed, and the store
     * gets the change when it answers again) or the breaker is not shared through this store.
     */
    @Nullable
    FleetChange lastOperatorChange(String breaker);

    /**
     * The named breaker's state in the store as this instance last heard it, or {@code null} when the
     * store has not answered for it yet, or does not say (the default).
     */
    default @Nullable FleetDescriptor fleet(String breaker) {
        return null;
    }
}
