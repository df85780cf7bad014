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
     * Whether this instance's last operator change of the named breaker changed the fleet's state:
     * {@code true} or {@code false} as the store answered it, {@code null} when the store did not
     * answer (only the local copy changed; the store gets the change when it answers again) or the
     * breaker is not shared through this store.
     */
    @Nullable
    Boolean lastOperatorChangeChangedFleet(String breaker);
}
