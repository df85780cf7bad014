package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.spring.actuate.SharedSettings;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.Objects;

/**
 * Settings changed at runtime, shared through the DynamoDB table: kept in the breaker's own item
 * ({@code set_epoch}, {@code set_ver}, {@code set_p}, {@code set_by}; see docs/dynamodb.md), with an
 * epoch (a random id chosen by the instance that creates them, so a table that lost the item never
 * hands out a used one again) and a version raised by every change. A change is a conditional write
 * on the epoch and version the changing instance last saw. Every refresh of a breaker's state reads
 * the whole item, so the settings travel with it at no extra cost: a change reaches every instance
 * that has calls within one {@code state-cache-ttl} (plus one round trip).
 */
public final class DynamoSharedSettings implements SharedSettings {

    private final DynamoStateStore store;

    private volatile @Nullable Listener listener;

    public DynamoSharedSettings(DynamoStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
        store.afterRefresh(this::refreshed);
    }

    @Override
    public Outcome change(String breaker, Fleet base, Map<String, String> changes, @Nullable String principal) {
        if (!store.isAvailable()) {
            return new Outcome.Unreachable();
        }
        FleetTable.SettingsChange change = store.changeSettings(
                breaker,
                new FleetTable.SettingsEdit(
                        DynamoStateStore.newInstanceId(),
                        base.epoch(),
                        base.version(),
                        base.overrides(),
                        changes,
                        principal));
        if (change == null) {
            return new Outcome.Unanswered();
        }
        Fleet fleet = fleet(change.item());
        return switch (change.outcome()) {
            case APPLIED -> new Outcome.Applied(fleet);
            case UNCHANGED -> new Outcome.Unchanged(fleet);
            case STALE -> new Outcome.Stale(fleet);
        };
    }

    /** The breaker's item must outlive its wait plus its probe lease, as at start-up. */
    @Override
    public @Nullable String refusal(String breaker, BreakerConfig config) {
        try {
            store.getSettings().requireItemExpiryCovers(breaker, config);
            return null;
        } catch (InvalidDynamoSettingException tooShort) {
            return tooShort.getMessage();
        }
    }

    @Override
    public void onChange(Listener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** After a refresh the table answered, on a command thread. */
    private void refreshed(String breaker, FleetItem item, long readAt) {
        Listener target = listener;
        if (target != null) {
            target.seen(breaker, fleet(item), readAt);
        }
    }

    /** The fleet's settings in an item; {@link Fleet#NONE} when it holds none. */
    static Fleet fleet(FleetItem item) {
        FleetItem.Settings settings = item.settings();
        return settings == null
                ? Fleet.NONE
                : new Fleet(settings.epoch(), settings.version(), settings.overrides(), settings.principal());
    }
}
