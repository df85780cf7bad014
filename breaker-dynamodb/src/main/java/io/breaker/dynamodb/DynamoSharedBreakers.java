package io.breaker.dynamodb;

import io.breaker.spring.actuate.FleetChange;
import io.breaker.spring.actuate.FleetDescriptor;
import io.breaker.spring.actuate.SharedBreakers;
import io.breaker.spring.actuate.StoreDescriptor;
import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * What the {@code breakers} endpoint shows of the DynamoDB table: whether it answers this instance,
 * whether the instance acts alone meanwhile, whether an operator's change reached the fleet, and the
 * fleet's state as this instance last read it.
 */
public final class DynamoSharedBreakers implements SharedBreakers {

    private final DynamoStateStore store;

    public DynamoSharedBreakers(DynamoStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public StoreDescriptor store() {
        DynamoStoreStatus.Report report = new DynamoStoreStatus(store).check();
        return new StoreDescriptor(
                "dynamodb",
                report.available(),
                report.actingAlone(),
                report.failureMode().toString());
    }

    @Override
    public @Nullable FleetChange lastOperatorChange(String breaker) {
        return switch (store.lastOperatorChange(breaker)) {
            case CHANGED -> FleetChange.CHANGED;
            case UNCHANGED -> FleetChange.UNCHANGED;
            case UNANSWERED -> FleetChange.UNKNOWN;
            case NOT_SENT -> null;
        };
    }

    @Override
    public @Nullable FleetDescriptor fleet(String breaker) {
        DynamoSharedState.Seen seen = store.seen(breaker);
        return seen == null ? null : new FleetDescriptor(seen.state(), seen.age());
    }
}
