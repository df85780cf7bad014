package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import org.springframework.lang.Nullable;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where settings changed at runtime are shared with the other instances of the application (for
 * example breaker-redis, which keeps them next to the breaker's shared state). A store module
 * registers one bean of this type; without one, a change at runtime stays on the instance that
 * received it.
 *
 * <p>The store holds, per breaker, the fleet's {@link Fleet settings}: the overrides, a version raised
 * by every change, and an epoch the store cannot reuse (a random id written when the store creates
 * them). A change is a change of the settings it names, made by compare-and-set: only while the
 * fleet's settings are still the ones the changing instance last saw (same epoch and version).
 */
public interface SharedSettings {

    /**
     * Changes the named settings of a breaker shared with the fleet, if the fleet's settings are still
     * {@code base}. When the store holds no settings for the breaker (none were ever changed, or the
     * store lost them), it creates them under a new epoch from {@code base}'s overrides with the change
     * applied: an instance that remembers the fleet's settings puts them back.
     *
     * @param breaker   the breaker's name
     * @param base      the fleet's settings this instance last saw ({@link Fleet#NONE}: none)
     * @param changes   property name (as in YAML) to value as written ({@code 10s}); a {@code null}
     *                  value returns that property to its configured value
     * @param principal who made the change, or {@code null}
     */
    Outcome change(String breaker, Fleet base, Map<String, String> changes, @Nullable String principal);

    /**
     * Why the store cannot take these settings for the breaker (for example: its keys would expire
     * while the breaker waits), or {@code null} when it can. Asked before anything changes, and for
     * settings read from the store before they are applied.
     */
    default @Nullable String refusal(String breaker, BreakerConfig config) {
        return null;
    }

    /**
     * Registers the one consumer of the fleet's settings: the store calls it (never on a call path)
     * each time it has read them, whether they changed or not.
     */
    void onChange(Listener listener);

    /** Receives the fleet's settings as the store holds them. */
    @FunctionalInterface
    interface Listener {

        /**
         * @param breaker the breaker's name
         * @param fleet   the fleet's settings; {@link Fleet#NONE} when the store holds none
         * @param readAt  when ({@link System#nanoTime()}) the read was sent: a read sent before this
         *                instance's own newest change or adoption cannot undo it
         */
        void seen(String breaker, Fleet fleet, long readAt);
    }

    /**
     * The fleet's runtime settings of one breaker.
     *
     * @param epoch     the store's id of these settings, new each time the store creates them ({@code ""}: none)
     * @param version   raised by every change within the epoch
     * @param overrides property name to value as written; empty: the configured values
     * @param principal who made the newest change, or {@code null}
     */
    record Fleet(
            String epoch,
            long version,
            Map<String, String> overrides,
            @Nullable String principal) {

        /** No settings in the store: every instance runs its configured values. */
        public static final Fleet NONE = new Fleet("", 0, Map.of(), null);

        public Fleet {
            Objects.requireNonNull(epoch, "epoch");
            overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        }

        /** Whether the store holds no settings. */
        public boolean isNone() {
            return epoch.isEmpty();
        }

        /** Whether {@code other} is the same epoch and version. */
        public boolean sameAs(Fleet other) {
            return epoch.equals(other.epoch) && version == other.version;
        }
    }

    /** What the store did with a change. */
    sealed interface Outcome {

        /** The store took the change: the fleet's settings are now {@code fleet}. */
        record Applied(Fleet fleet) implements Outcome {}

        /** The change changes nothing in the fleet's settings, which are {@code fleet}: nothing was written. */
        record Unchanged(Fleet fleet) implements Outcome {}

        /** The fleet's settings were no longer the base: nothing changed; they are {@code fleet}. */
        record Stale(Fleet fleet) implements Outcome {}

        /** Sent, but no answer in time: the store may have taken it or not. */
        record Unanswered() implements Outcome {}

        /** Not sent: the store is known to be unreachable. */
        record Unreachable() implements Outcome {}
    }
}
