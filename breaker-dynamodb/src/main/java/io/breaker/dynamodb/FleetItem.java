package io.breaker.dynamodb;

import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import io.breaker.spi.SharedVerdict;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * One breaker's item in the table, as read (see {@link ItemLayout} for its attributes). Every time is
 * a writer's wall clock in milliseconds: DynamoDB has no clock of its own in expressions, so the
 * instances' clocks decide, and the protocol tolerates skew below the probe lease (see docs/dynamodb.md).
 *
 * @param state       the fleet's state
 * @param cause       why it is in that state
 * @param version     raised by every transition (not by the window's counts): orders answers, and
 *                    conditions the trip (only the first trip of a CLOSED version wins)
 * @param incarnation chosen when the item is created: a new one means the item was lost and created again
 * @param probeAt     OPEN: when a probe may be tried (the reopen time, fixed by the trip or a failed probe)
 * @param leaseOwner  HALF_OPEN: the instance holding the probe lease
 * @param leaseUntil  HALF_OPEN: when that lease runs out
 * @param attempts    probes failed since the trip
 * @param waitReason  why the OPEN wait is as long as it is
 * @param tripped     the window's counts when it tripped ("calls,failed,slow"), or empty
 * @param operatorAt  the time of the newest operator action applied (the newest one wins)
 * @param window      the shared window's counts
 * @param expiresAt   the TTL attribute (epoch seconds): cleanup only, never read by a decision
 * @param sequences   per instance, the sequence of its newest report applied in the current window;
 *                    {@code null} when the item has no such map (written by a version without it)
 * @param settings    the fleet's settings changed at runtime, {@code null} while nobody changed one
 */
record FleetItem(
        State state,
        TransitionCause cause,
        long version,
        String incarnation,
        long probeAt,
        String leaseOwner,
        long leaseUntil,
        int attempts,
        @Nullable WaitReason waitReason,
        String tripped,
        long operatorAt,
        WindowCounts window,
        long expiresAt,
        @Nullable Map<String, Long> sequences,
        @Nullable Settings settings) {

    /**
     * The fleet's settings changed at runtime, kept in the breaker's item.
     *
     * @param epoch     chosen by the instance that created them; a new one after the item was lost
     * @param version   raised by every change within the epoch
     * @param overrides property name (as in YAML) to the value as written
     * @param principal who made the newest change, or {@code null}
     */
    record Settings(
            String epoch,
            long version,
            Map<String, String> overrides,
            @Nullable String principal) {}

    /** Reads an item; throws if it is not one of ours. */
    static FleetItem of(Map<String, AttributeValue> item) {
        return new FleetItem(
                State.valueOf(text(item, ItemLayout.STATE, "")),
                TransitionCause.valueOf(text(item, ItemLayout.CAUSE, TransitionCause.STORE_RESET.name())),
                number(item, ItemLayout.VERSION),
                text(item, ItemLayout.INCARNATION, ""),
                number(item, ItemLayout.PROBE_AT),
                text(item, ItemLayout.LEASE_OWNER, ""),
                number(item, ItemLayout.LEASE_UNTIL),
                (int) number(item, ItemLayout.ATTEMPTS),
                item.containsKey(ItemLayout.WAIT_REASON)
                        ? WaitReason.valueOf(item.get(ItemLayout.WAIT_REASON).s())
                        : null,
                text(item, ItemLayout.TRIPPED, ""),
                number(item, ItemLayout.OPERATOR_AT),
                new WindowCounts(
                        number(item, ItemLayout.WINDOW_EPOCH),
                        number(item, ItemLayout.WINDOW_BLOCK),
                        number(item, ItemLayout.CURRENT_CALLS),
                        number(item, ItemLayout.CURRENT_FAILED),
                        number(item, ItemLayout.CURRENT_SLOW),
                        number(item, ItemLayout.PREVIOUS_CALLS),
                        number(item, ItemLayout.PREVIOUS_FAILED),
                        number(item, ItemLayout.PREVIOUS_SLOW),
                        number(item, ItemLayout.CURRENT_FAIL_AT),
                        number(item, ItemLayout.CURRENT_PRE),
                        number(item, ItemLayout.PREVIOUS_PRE),
                        number(item, ItemLayout.PREVIOUS_FAIL_AT)),
                number(item, ItemLayout.EXPIRES_AT),
                sequences(item.get(ItemLayout.SEQUENCES)),
                settings(item));
    }

    /** The settings in an item: none without an epoch (nobody changed one, or the item was lost). */
    private static @Nullable Settings settings(Map<String, AttributeValue> item) {
        String epoch = text(item, ItemLayout.SETTINGS_EPOCH, "");
        if (epoch.isEmpty()) {
            return null;
        }
        Map<String, String> overrides = new java.util.TreeMap<>();
        AttributeValue values = item.get(ItemLayout.SETTINGS);
        if (values != null && values.hasM()) {
            values.m().forEach((property, value) -> {
                if (value.s() != null) {
                    overrides.put(property, value.s());
                }
            });
        }
        AttributeValue by = item.get(ItemLayout.SETTINGS_BY);
        return new Settings(epoch, number(item, ItemLayout.SETTINGS_VERSION), overrides, by == null ? null : by.s());
    }

    /** The sequence of {@code instance}'s newest report applied in the current window, 0 for none. */
    long appliedSequence(String instance) {
        Long applied = sequences == null ? null : sequences.get(instance);
        return applied == null ? 0L : applied;
    }

    private static @Nullable Map<String, Long> sequences(@Nullable AttributeValue value) {
        if (value == null || !value.hasM()) {
            return null;
        }
        Map<String, Long> sequences = new java.util.HashMap<>();
        value.m().forEach((instance, sequence) -> {
            if (sequence.n() != null) {
                sequences.put(instance, Long.parseLong(sequence.n()));
            }
        });
        return sequences;
    }

    /**
     * The fleet's state seen from the instance {@code owner} at {@code nowMillis} (its clock): HALF_OPEN
     * only for the holder of a live lease; anyone else reads OPEN until that lease runs out.
     */
    SharedVerdict verdictFor(String owner, long nowMillis) {
        State seen = state;
        long remainingMillis = 0;
        if (state == State.OPEN) {
            remainingMillis = Math.max(0, probeAt - nowMillis);
        } else if (state == State.HALF_OPEN) {
            if (owner.equals(leaseOwner) && leaseUntil > nowMillis) {
                remainingMillis = leaseUntil - nowMillis;
            } else {
                seen = State.OPEN;
                remainingMillis = Math.max(0, leaseUntil - nowMillis);
            }
        }
        boolean episode = state == State.OPEN || state == State.HALF_OPEN;
        return new SharedVerdict(
                seen,
                remainingMillis * 1_000_000L,
                cause,
                episode ? trippedCounts() : null,
                episode ? attempts : SharedVerdict.UNKNOWN,
                episode ? waitReason : null);
    }

    private SharedVerdict.@Nullable Counts trippedCounts() {
        String[] parts = tripped.split(",");
        if (parts.length != 3) {
            return null;
        }
        return new SharedVerdict.Counts(
                Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    }

    private static String text(Map<String, AttributeValue> item, String name, String absent) {
        AttributeValue value = item.get(name);
        return value == null || value.s() == null ? absent : value.s();
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0L : Long.parseLong(value.n());
    }
}
