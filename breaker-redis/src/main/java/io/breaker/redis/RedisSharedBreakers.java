package io.breaker.redis;

import io.breaker.spring.actuate.FleetChange;
import io.breaker.spring.actuate.FleetDescriptor;
import io.breaker.spring.actuate.SharedBreakers;
import io.breaker.spring.actuate.StoreDescriptor;
import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * What the {@code breakers} endpoint shows of Redis: whether it answers this instance, whether the
 * instance acts alone meanwhile, and whether an operator's change reached the fleet.
 */
public final class RedisSharedBreakers implements SharedBreakers {

    private final RedisStateStore store;

    public RedisSharedBreakers(RedisStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public StoreDescriptor store() {
        BreakerStoreStatus.Report report = new BreakerStoreStatus(store).check();
        return new StoreDescriptor(
                "redis",
                report.available(),
                report.actingAlone(),
                report.failureMode().toString());
    }

    @Override
    public FleetChange lastOperatorChange(String breaker) {
        Boolean changed = store.lastOperatorChangeChangedFleet(breaker);
        if (changed != null) {
            return changed ? FleetChange.CHANGED : FleetChange.UNCHANGED;
        }
        return store.lastOperatorChangeUnanswered(breaker) ? FleetChange.UNKNOWN : null;
    }

    @Override
    public @Nullable FleetDescriptor fleet(String breaker) {
        FleetSeen seen = store.fleetSeen(breaker);
        return seen == null ? null : new FleetDescriptor(seen.state(), seen.age());
    }
}
