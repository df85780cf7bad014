package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import io.breaker.dynamodb.DynamoSharedState.OperatorChange;
import io.breaker.spi.OutcomeBits;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import java.util.Map;
import java.util.function.Supplier;

import static io.breaker.dynamodb.ItemLayout.n;
import static io.breaker.dynamodb.ItemLayout.s;

/**
 * One breaker's item and the protocol's writes on it, each a single conditional {@code UpdateItem}
 * (see {@link ItemLayout}). Runs on the store's command threads; every method answers the item as the
 * table holds it after the operation: the write's new item, or, when its condition failed (another
 * instance got there first), a strongly consistent read of the item that stopped it.
 */
final class FleetTable {

    private static final Log LOG = LogFactory.getLog(DynamoStateStore.class);

    /**
     * Attempts of a report whose write lost its condition to other instances' writes (the block they
     * raced for moved on, or filled) before it is left for the instance's next refresh to send again
     * ({@link DynamoStateStore#getDeferredReportCount}). Each lost attempt is another instance's write
     * applied, so deferring takes sixteen of them in a row ({@code ConcurrentReportsTest}: 8 instances
     * racing on one item, none deferred).
     */
    private static final int REPORT_ATTEMPTS = 16;
    /** 2025-01-01T00:00:00Z: sequences count from it, so they stay short (10 digits until 2028). */
    static final long SEQUENCE_EPOCH_MILLIS = 1_735_689_600_000L;

    static final long SEQUENCE_TICK_MILLIS = 10;

    /**
     * An entry of {@link ItemLayout#SEQUENCES} numbered longer ago than this (by the writer's clock) is
     * removed by the next report: its instance has stopped (a deployment replaced it) or stayed silent,
     * and the report it names was answered or given up long ago (see
     * {@link DynamoSharedState#RESEND_LIMIT_MILLIS}). Without it the map would grow with every
     * instance that ever reported in a window, and a healthy window lasts until the next trip.
     */
    static final long ENTRY_RETENTION_MILLIS = java.util.concurrent.TimeUnit.MINUTES.toMillis(10);

    /** Stale entries one report removes at most (a write's expression stays small). */
    static final int MAX_REMOVED_PER_WRITE = 16;

    /**
     * Attempts of an operator's action whose item changed state between its two writes, before it is
     * left for the next refresh to send again (see {@link Forced#taken}).
     */
    private static final int FORCE_ATTEMPTS = 4;

    private final DynamoStateStore store;
    private final String name;
    /** Whether this instance has seen the item exist (read or written it); then writes need no read first. */
    private volatile boolean seen;
    /** The sequence of this instance's newest report on this breaker. */
    private final java.util.concurrent.atomic.AtomicLong sequences = new java.util.concurrent.atomic.AtomicLong();

    FleetTable(DynamoStateStore store, String name) {
        this.store = store;
        this.name = name;
    }

    /** The item, created CLOSED if nobody has written it yet (a conditional put: one creator wins). */
    FleetItem read() {
        return readOrCreate().item();
    }

    /** The item, and whether this read had to create it. */
    private Read readOrCreate() {
        long sent = store.nowMillis();
        GetItemResponse got = store.client()
                .getItem(request -> request.tableName(store.table())
                        .key(Map.of(ItemLayout.KEY, s(name)))
                        .consistentRead(true));
        store.sawAnswer(got, sent);
        seen = true;
        if (got.hasItem() && !got.item().isEmpty()) {
            return new Read(FleetItem.of(got.item()), false);
        }
        Map<String, AttributeValue> fresh =
                ItemLayout.fresh(name, DynamoStateStore.newInstanceId(), store.nowMillis(), store.expiresAt());
        try {
            store.client()
                    .putItem(PutItemRequest.builder()
                            .tableName(store.table())
                            .item(fresh)
                            .conditionExpression("attribute_not_exists(#k)")
                            .expressionAttributeNames(Map.of("#k", ItemLayout.KEY))
                            .build());
            return new Read(FleetItem.of(fresh), true);
        } catch (ConditionalCheckFailedException createdMeanwhile) {
            return new Read(read(), true);
        }
    }

    private record Read(FleetItem item, boolean created) {}

    /**
     * Adds outcomes to the fleet's window (a failed or slow call's {@code bits}, 0 for none, and
     * {@code successes} counted while the window of {@code successEpoch} was current, the first of them
     * at {@code successesSince}), then trips the fleet if the window's verdict says so. Outcomes count
     * only in CLOSED and in the window they belong to; successes older than the current block's
     * failures count as the previous block's calls (see {@link WindowCounts#olderThanFailures}).
     * {@code waitMillis} is the wait a trip opens for.
     *
     * <p>{@code sequence} numbers the report among this instance's reports (see {@link #nextSequence}):
     * the write records it in the window's {@link ItemLayout#SEQUENCES} and is conditional on it being
     * above the one recorded, so a report applied already (its answer lost, then retried by the SDK or
     * sent again) is not counted twice; finding it applied is its acknowledgement. A failed or slow
     * call counts only in the window of {@code failureEpoch} (-1: whichever window is current).
     *
     * @return the item after the report, or {@code null} when every attempt lost its condition to other
     *         instances' writes: the report was not counted and is to be sent again
     */
    @Nullable
    FleetItem report(
            FleetItem known,
            BreakerConfig config,
            long sequence,
            long failureEpoch,
            int bits,
            long successes,
            long successEpoch,
            long successesSince,
            long waitMillis,
            WaitReason waitReason) {
        // The instance reports only in CLOSED: a cached item in another state is older than the table's.
        FleetItem item = known.state() == State.CLOSED ? known : read();
        for (int attempt = 0; attempt < REPORT_ATTEMPTS; attempt++) {
            if (item.state() != State.CLOSED) {
                return item;
            }
            if (item.appliedSequence(store.instanceId()) >= sequence) {
                return judge(item, config, waitMillis, waitReason); // applied already: its answer was lost
            }
            long k = item.window().epoch() == successEpoch ? successes : 0;
            int counted = failureEpoch < 0 || item.window().epoch() == failureEpoch ? bits : 0;
            int own = counted & OutcomeBits.CALL;
            if (k + own == 0) {
                return item;
            }
            FleetItem added = add(item, config, sequence, k, successesSince, own, counted);
            if (added == null) {
                item = read(); // the block or the state moved, or the report was applied: look again
                continue;
            }
            if (LOG.isTraceEnabled()) {
                LOG.trace("Report counted: store=dynamodb breaker=" + name + " instance=" + store.instanceId()
                        + " sequence=" + sequence + " bits=" + counted + " successes=" + k + " since=" + successesSince
                        + " read=" + item.window() + " after=" + added.window());
            }
            return judge(added, config, waitMillis, waitReason);
        }
        store.reportDeferred();
        if (LOG.isDebugEnabled()) {
            LOG.debug("Report deferred after " + REPORT_ATTEMPTS + " attempts: store=dynamodb breaker=" + name
                    + " sequence=" + sequence + " bits=" + bits + " successes=" + successes + " window="
                    + item.window());
        }
        return null;
    }

    /**
     * The next sequence for a report of this instance on this breaker: the hundredths of a second since
     * {@link #SEQUENCE_EPOCH_MILLIS} on this instance's clock, or one more than the last when that is
     * higher (more than a hundred reports a second, or a clock set back). So a sequence also says when it
     * was numbered, no earlier than {@link #numberedAt}.
     */
    long nextSequence() {
        long tick = Math.floorDiv(store.nowMillis() - SEQUENCE_EPOCH_MILLIS, SEQUENCE_TICK_MILLIS);
        return sequences.updateAndGet(last -> Math.max(last + 1, tick));
    }

    /** When (the numbering instance's clock, ms) a sequence was numbered: that time or later. */
    static long numberedAt(long sequence) {
        return SEQUENCE_EPOCH_MILLIS + sequence * SEQUENCE_TICK_MILLIS;
    }

    /** Trips the fleet if the window of {@code item} says so. */
    private FleetItem judge(FleetItem item, BreakerConfig config, long waitMillis, WaitReason waitReason) {
        String[] verdict = item.window().verdict(config, store.nowMillis());
        return verdict == null
                ? item
                : trip(item, TransitionCause.valueOf(verdict[0]), verdict[1], waitMillis, waitReason);
    }

    /**
     * One atomic ADD to the current block, or the block's rotation; {@code null} if its condition failed.
     * {@code successes} (the first counted at {@code since}) and {@code own} (0 or 1: the failed or slow
     * call of {@code bits}) are the calls to add.
     */
    private FleetItem add(
            FleetItem item, BreakerConfig config, long sequence, long successes, long since, int own, int bits) {
        long now = store.nowMillis();
        WindowCounts window = item.window();
        long target = window.targetBlock(config, now);
        long failed = (bits & OutcomeBits.FAILED) != 0 ? 1 : 0;
        long slow = (bits & OutcomeBits.SLOW) != 0 ? 1 : 0;
        boolean countBased = config.getSlidingWindowType() == SlidingWindowType.COUNT_BASED;
        // Successes older than the current block's failures are the previous block's calls; among them, those
        // older than the previous block's failures too are its older successes (see WindowCounts).
        boolean before = successes > 0 && window.olderThanFailures(config, since);
        boolean beforePrevious = before && window.olderThanPreviousFailures(since);
        // Successes counted while the current block has no failure (a failure report's own successes were all
        // counted before its failure) are its older successes: the window reads the block's failures first.
        boolean leading = countBased && successes > 0 && !before && window.failAt() == 0;
        // Successes alone, into a full block that holds no failed or slow call: every call of the window is a
        // success either way, so they are added to that block rather than starting a new one. Concurrent batches
        // then commute (an ADD each) instead of racing to start the next block, which all but one would lose.
        boolean intoFullBlock = countBased
                && target == window.block() + 1
                && bits == 0
                && successes > 0
                && !before
                && window.failed() == 0
                && window.slow() == 0;
        ItemLayout.Write write = new ItemLayout.Write(name);
        String closed = write.ref(ItemLayout.STATE) + " = " + write.val("closed", s(State.CLOSED.name()));
        String epoch = write.ref(ItemLayout.WINDOW_EPOCH) + " = " + write.val("epoch", n(window.epoch()));
        String block = write.ref(ItemLayout.WINDOW_BLOCK) + " = " + write.val("block", n(window.block()));
        // Named only where an expression uses it: DynamoDB refuses a request naming an attribute it does not use.
        Supplier<String> failAt = () -> write.ref(ItemLayout.CURRENT_FAIL_AT);
        if (target == window.block() || intoFullBlock) {
            write.add(ItemLayout.CURRENT_CALLS, (before ? 0 : successes) + own)
                    .add(ItemLayout.CURRENT_FAILED, failed)
                    .add(ItemLayout.CURRENT_SLOW, slow);
            if (leading) {
                write.add(ItemLayout.CURRENT_PRE, successes);
            }
            if (before) {
                write.add(ItemLayout.PREVIOUS_CALLS, successes); // before the block's failures: they go out first
                if (beforePrevious) {
                    write.add(ItemLayout.PREVIOUS_PRE, successes);
                }
            }
            if (failed + slow > 0) {
                write.setExpression(
                        ItemLayout.CURRENT_FAIL_AT,
                        "if_not_exists(" + failAt.get() + ", " + write.val("now", n(now)) + ")");
            }
            String room = config.getSlidingWindowType() != SlidingWindowType.COUNT_BASED
                    ? ""
                    : intoFullBlock
                            ? " AND " + write.ref(ItemLayout.CURRENT_FAILED) + " = " + write.val("zero", n(0)) + " AND "
                                    + write.ref(ItemLayout.CURRENT_SLOW) + " = :zero"
                            : " AND " + write.ref(ItemLayout.CURRENT_CALLS) + " < "
                                    + write.val("size", n(config.getSlidingWindowSize()));
            // Successes counted as older than the block's failures: it must still have none (or this report's
            // failure must still be its first). Successes counted as newer than the block's failures: no failure
            // may have arrived before them meanwhile.
            String newer = leading
                    ? " AND attribute_not_exists(" + failAt.get() + ")"
                    : successes > 0 && !before
                            ? " AND (attribute_not_exists(" + failAt.get() + ") OR " + failAt.get() + " <= "
                                    + write.val("since", n(since)) + ")"
                            : "";
            write.when(closed + " AND " + epoch + " AND " + block + room + newer + once(write, item, sequence));
        } else {
            // A new block: the current one becomes the previous one if it is adjacent, else both start empty.
            // Conditional on the current block's calls as read, so no concurrent ADD is lost. Successes older
            // than the failures of the block that becomes the previous one are its older successes; any other
            // successes come before the new block's first failure: they are its older successes.
            boolean adjacent = target == window.block() + 1;
            long movedBack = adjacent && before ? successes : 0;
            write.set(ItemLayout.PREVIOUS_CALLS, n((adjacent ? window.calls() : 0) + movedBack))
                    .set(ItemLayout.PREVIOUS_FAILED, n(adjacent ? window.failed() : 0))
                    .set(ItemLayout.PREVIOUS_SLOW, n(adjacent ? window.slow() : 0))
                    .set(ItemLayout.CURRENT_CALLS, n((before ? 0 : successes) + own))
                    .set(ItemLayout.CURRENT_FAILED, n(failed))
                    .set(ItemLayout.CURRENT_SLOW, n(slow))
                    .set(ItemLayout.WINDOW_BLOCK, n(target));
            setOrRemove(write, ItemLayout.PREVIOUS_PRE, (adjacent ? window.pre() : 0) + movedBack);
            setOrRemove(write, ItemLayout.PREVIOUS_FAIL_AT, adjacent ? window.failAt() : 0);
            setOrRemove(write, ItemLayout.CURRENT_PRE, countBased && !before ? successes : 0);
            if (failed + slow > 0) {
                write.set(ItemLayout.CURRENT_FAIL_AT, n(now));
            } else {
                write.remove(ItemLayout.CURRENT_FAIL_AT);
            }
            write.when(closed + " AND " + epoch + " AND " + block + " AND " + write.ref(ItemLayout.CURRENT_CALLS)
                    + " = " + write.val("read_calls", n(window.calls())) + once(write, item, sequence));
        }
        write.set(ItemLayout.EXPIRES_AT, n(store.expiresAt()));
        return updateOrNull(write);
    }

    /**
     * Records the report's sequence in the window's map and answers the condition that it was not
     * recorded yet. An item without the map (written before it existed) gets one holding this report;
     * its condition is then that the map is still missing, so a concurrent writer's map is never lost.
     */
    private String once(ItemLayout.Write write, FleetItem item, long sequence) {
        String sequences = write.ref(ItemLayout.SEQUENCES);
        if (item.sequences() == null) {
            write.set(
                    ItemLayout.SEQUENCES,
                    AttributeValue.builder()
                            .m(Map.of(store.instanceId(), n(sequence)))
                            .build());
            return " AND attribute_not_exists(" + sequences + ")";
        }
        String seq = write.val("seq", n(sequence)); // defined only where used: an unused value is refused
        String mine = sequences + "." + write.refName("me_seq", store.instanceId());
        write.setPath(mine, seq);
        int removed = 0;
        long before = store.nowMillis() - ENTRY_RETENTION_MILLIS;
        for (Map.Entry<String, Long> entry : item.sequences().entrySet()) {
            if (removed == MAX_REMOVED_PER_WRITE) {
                break;
            }
            if (!entry.getKey().equals(store.instanceId()) && numberedAt(entry.getValue()) < before) {
                write.removePath(sequences + "." + write.refName("stale_" + removed++, entry.getKey()));
            }
        }
        return " AND attribute_exists(" + sequences + ") AND (attribute_not_exists(" + mine + ") OR " + mine + " < "
                + seq + ")";
    }

    /**
     * CLOSED to OPEN, conditional on the CLOSED version the verdict was computed from: only the first
     * trip fixes the reopen time; a fleet already tripped (or changed otherwise) is left as it is.
     */
    private FleetItem trip(FleetItem read, TransitionCause cause, String counts, long waitMillis, WaitReason reason) {
        long now = store.nowMillis();
        ItemLayout.Write write = ItemLayout.transition(name, State.OPEN, cause, now, store.expiresAt());
        write.set(ItemLayout.TRIPPED, s(counts));
        ItemLayout.reopen(write, now + waitMillis, 0, reason);
        ItemLayout.resetWindow(write);
        write.when(write.ref(ItemLayout.STATE) + " = " + write.val("closed", s(State.CLOSED.name())) + " AND "
                + ItemLayout.atVersion(write, read));
        return update(write);
    }

    /**
     * OPEN to HALF_OPEN: the probe lease. Exactly one instance wins it once the reopen time has passed,
     * or once the previous lease ran out without a report.
     */
    FleetItem acquireProbe(long leaseMillis) {
        long now = store.nowMillis();
        ItemLayout.Write write =
                ItemLayout.transition(name, State.HALF_OPEN, TransitionCause.WAIT_ELAPSED, now, store.expiresAt());
        write.set(ItemLayout.LEASE_OWNER, s(store.instanceId())).set(ItemLayout.LEASE_UNTIL, n(now + leaseMillis));
        String state = write.ref(ItemLayout.STATE);
        String at = write.val("now", n(now));
        write.when("(" + state + " = " + write.val("open", s(State.OPEN.name())) + " AND "
                + write.ref(ItemLayout.PROBE_AT) + " <= " + at + ") OR (" + state + " = "
                + write.val("half", s(State.HALF_OPEN.name())) + " AND " + write.ref(ItemLayout.LEASE_UNTIL) + " <= "
                + at + ")");
        return update(write);
    }

    /**
     * HALF_OPEN to OPEN: a probe failed. Only the lease holder (or anyone once the lease ran out)
     * reopens, for {@code waitMillis}, counting one more failed probe.
     */
    FleetItem probeFailed(long waitMillis, WaitReason reason) {
        long now = store.nowMillis();
        ItemLayout.Write write =
                ItemLayout.transition(name, State.OPEN, TransitionCause.PROBE_FAILED, now, store.expiresAt());
        write.set(ItemLayout.PROBE_AT, n(now + waitMillis))
                .set(ItemLayout.WAIT_REASON, s(reason.name()))
                .remove(ItemLayout.LEASE_OWNER, ItemLayout.LEASE_UNTIL);
        write.setExpression(
                ItemLayout.ATTEMPTS,
                "if_not_exists(" + write.ref(ItemLayout.ATTEMPTS) + ", " + write.val("zero", n(0)) + ") + "
                        + write.val("one", n(1)));
        write.when(write.ref(ItemLayout.STATE) + " = " + write.val("half", s(State.HALF_OPEN.name())) + " AND ("
                + write.ref(ItemLayout.LEASE_OWNER) + " = " + write.val("me", s(store.instanceId())) + " OR "
                + write.ref(ItemLayout.LEASE_UNTIL) + " <= " + write.val("now", n(now)) + ")");
        return update(write);
    }

    /** HALF_OPEN to CLOSED: only the lease holder closes the fleet, with a fresh window. */
    FleetItem close() {
        long now = store.nowMillis();
        ItemLayout.Write write =
                ItemLayout.transition(name, State.CLOSED, TransitionCause.PROBES_SUCCEEDED, now, store.expiresAt());
        ItemLayout.endEpisode(write);
        ItemLayout.resetWindow(write);
        write.when(write.ref(ItemLayout.STATE) + " = " + write.val("half", s(State.HALF_OPEN.name())) + " AND "
                + write.ref(ItemLayout.LEASE_OWNER) + " = " + write.val("me", s(store.instanceId())));
        return update(write);
    }

    /**
     * An operator sets {@code target} for the fleet; the newest action (by its time) wins, so one
     * replayed after an outage never overwrites a newer one. CLOSED and FORCED_CLOSED start a fresh
     * window. On a fleet already in {@code target} only the action's time is written: the state, its
     * version and the window stay as they are (releasing a CLOSED breaker keeps the failures it counted).
     */
    Forced force(State target, long atMillis) {
        FleetItem item = null;
        for (int attempt = 0; attempt < FORCE_ATTEMPTS; attempt++) {
            ItemLayout.Write change =
                    ItemLayout.transition(name, target, TransitionCause.OPERATOR, store.nowMillis(), store.expiresAt());
            change.set(ItemLayout.OPERATOR_AT, n(atMillis));
            ItemLayout.endEpisode(change);
            if (target != State.FORCED_OPEN) {
                ItemLayout.resetWindow(change);
            }
            change.when("(" + notNewerAction(change, atMillis) + ") AND " + change.ref(ItemLayout.STATE) + " <> "
                    + change.val("target", s(target.name())));
            Written changed = write(change);
            if (changed.applied()) {
                return new Forced(changed.item(), OperatorChange.CHANGED);
            }
            item = changed.item();
            if (item.operatorAt() > atMillis) {
                return new Forced(item, OperatorChange.UNCHANGED); // a newer action was applied: it stands
            }
            ItemLayout.Write stamp = new ItemLayout.Write(name)
                    .set(ItemLayout.OPERATOR_AT, n(atMillis))
                    .set(ItemLayout.EXPIRES_AT, n(store.expiresAt()));
            stamp.when("(" + notNewerAction(stamp, atMillis) + ") AND " + stamp.ref(ItemLayout.STATE) + " = "
                    + stamp.val("target", s(target.name())));
            Written stamped = write(stamp);
            if (stamped.applied()) {
                return new Forced(stamped.item(), OperatorChange.UNCHANGED);
            }
            item = stamped.item(); // the state moved between the two writes: decide again on it
        }
        return new Forced(item, null); // still moving: the action stays pending
    }

    /** Sets a counter the item may leave out while it is 0, or removes it. */
    private static void setOrRemove(ItemLayout.Write write, String attribute, long value) {
        if (value != 0) {
            write.set(attribute, n(value));
        } else {
            write.remove(attribute);
        }
    }

    private static String notNewerAction(ItemLayout.Write write, long atMillis) {
        String operatorAt = write.ref(ItemLayout.OPERATOR_AT);
        return "attribute_not_exists(" + operatorAt + ") OR " + operatorAt + " <= " + write.val("at", n(atMillis));
    }

    /**
     * An operator's action as the table answered it: the item after it, and {@code taken}, what the
     * action did to the fleet ({@link OperatorChange#CHANGED} or {@link OperatorChange#UNCHANGED}), or
     * {@code null} when the table could not take it yet (the state kept moving under it): it is to be
     * sent again.
     */
    record Forced(FleetItem item, @Nullable OperatorChange taken) {}

    /**
     * A change of the fleet's runtime settings: {@code changes} (property to value as written; a
     * {@code null} value returns the property to its configured value) made on the settings an operator
     * saw, {@code baseOverrides} at {@code baseEpoch} and {@code baseVersion}, by {@code principal};
     * {@code newEpoch} names them if the table holds none.
     */
    record SettingsEdit(
            String newEpoch,
            String baseEpoch,
            long baseVersion,
            Map<String, String> baseOverrides,
            Map<String, @Nullable String> changes,
            @Nullable String principal) {}

    /**
     * Changes the fleet's settings changed at runtime, kept in the item (see {@link ItemLayout#SETTINGS}),
     * by compare-and-set: only while they are still at the edit's base epoch and version. When the item
     * holds none (nobody changed one, or the item was lost and created again), they are created under the
     * edit's new epoch, at version 1, from its base overrides with the changes applied. A change whose
     * result is the settings as they are writes nothing. Neither the item's version nor its state changes.
     */
    SettingsChange changeSettings(SettingsEdit edit) {
        FleetItem item = read();
        FleetItem.Settings current = item.settings();
        ItemLayout.Write write = new ItemLayout.Write(name).set(ItemLayout.EXPIRES_AT, n(store.expiresAt()));
        Map<String, String> after;
        if (current == null) {
            after = applied(edit.baseOverrides(), edit.changes());
            if (after.isEmpty()) {
                return new SettingsChange(SettingsOutcome.UNCHANGED, item); // the configured values, as without any
            }
            write.set(ItemLayout.SETTINGS_EPOCH, s(edit.newEpoch())).set(ItemLayout.SETTINGS_VERSION, n(1));
            write.when("attribute_not_exists(" + write.ref(ItemLayout.SETTINGS_EPOCH) + ")");
        } else {
            if (!current.epoch().equals(edit.baseEpoch()) || current.version() != edit.baseVersion()) {
                return new SettingsChange(SettingsOutcome.STALE, item);
            }
            after = applied(current.overrides(), edit.changes());
            if (after.equals(current.overrides())) {
                return new SettingsChange(SettingsOutcome.UNCHANGED, item);
            }
            write.setExpression(
                    ItemLayout.SETTINGS_VERSION,
                    write.ref(ItemLayout.SETTINGS_VERSION) + " + " + write.val("one", n(1)));
            write.when(write.ref(ItemLayout.SETTINGS_EPOCH) + " = " + write.val("base_epoch", s(edit.baseEpoch()))
                    + " AND " + write.ref(ItemLayout.SETTINGS_VERSION) + " = "
                    + write.val("base_ver", n(edit.baseVersion())));
        }
        write.set(ItemLayout.SETTINGS, ItemLayout.stringMap(after));
        if (edit.principal() != null) {
            write.set(ItemLayout.SETTINGS_BY, s(edit.principal()));
        } else {
            write.remove(ItemLayout.SETTINGS_BY);
        }
        FleetItem written = updateOrNull(write);
        return written != null
                ? new SettingsChange(SettingsOutcome.APPLIED, written)
                : new SettingsChange(SettingsOutcome.STALE, read()); // another change (or a loss) came first
    }

    private static Map<String, String> applied(Map<String, String> overrides, Map<String, @Nullable String> changes) {
        Map<String, String> after = new java.util.TreeMap<>(overrides);
        changes.forEach((property, value) -> {
            if (value == null) {
                after.remove(property);
            } else {
                after.put(property, value);
            }
        });
        return after;
    }

    /** What {@link #changeSettings} did. */
    enum SettingsOutcome {
        /** The settings changed, or were created. */
        APPLIED,
        /** The change changes nothing: nothing was written. */
        UNCHANGED,
        /** The settings were no longer at the base: nothing was written. */
        STALE
    }

    /** What {@link #changeSettings} did, and the item after it (the settings as the table holds them). */
    record SettingsChange(SettingsOutcome outcome, FleetItem item) {}

    /**
     * Puts to the table a trip an instance made alone while the table was silent: CLOSED to OPEN until
     * {@code probeAtMillis} (the reopen time that trip fixed), conditional on {@code found}, the CLOSED
     * item the instance got, being unchanged. Returns the item after the write, or as it is when the
     * condition failed (the fleet decided meanwhile).
     */
    FleetItem tripAlone(FleetItem found, TransitionCause cause, long probeAtMillis, WaitReason reason) {
        ItemLayout.Write write = ItemLayout.transition(name, State.OPEN, cause, store.nowMillis(), store.expiresAt());
        ItemLayout.reopen(write, probeAtMillis, 0, reason);
        ItemLayout.resetWindow(write);
        write.when(write.ref(ItemLayout.STATE) + " = " + write.val("closed", s(State.CLOSED.name())) + " AND "
                + write.ref(ItemLayout.INCARNATION) + " = " + write.val("found_inc", s(found.incarnation()))
                + " AND " + ItemLayout.atVersion(write, found));
        FleetItem after = updateOrNull(write);
        return after != null ? after : read();
    }

    /**
     * The table lost the item (deleted, or the table created again empty) and {@code found} is the one
     * created since, of another incarnation: puts back what this instance remembers of the lost one,
     * if it is worth keeping, with a write conditional on {@code found} being unchanged. Kept:
     * <ul>
     * <li>a forced state, unless the new item holds a newer operator action;</li>
     * <li>OPEN with its reopen time, failed probes and trip counts, while nothing has happened to the
     *     new item (still at its first version, CLOSED); a probe lease comes back as OPEN until the lease
     *     would have run out, so nobody probes beside a probe that may still run;</li>
     * <li>the time of the newest operator action, so an older forced state never comes back over a
     *     release (a forced state that came back first is released).</li>
     * </ul>
     * Returns the item after the write, {@code found} when there is nothing to put back, or the item
     * as it is when the write's condition failed (another instance put it back, or it changed).
     */
    FleetItem putBack(FleetItem remembered, FleetItem found) {
        if (found.incarnation().equals(remembered.incarnation())) {
            return found;
        }
        State lost = remembered.state();
        boolean newerOperator = remembered.operatorAt() > found.operatorAt();
        boolean untouched = found.version() == 1 && found.state() == State.CLOSED;
        State target;
        if (lost.isForced()) {
            if (!newerOperator) {
                return found; // the new item holds a newer operator action
            }
            target = lost;
        } else if ((lost == State.OPEN || lost == State.HALF_OPEN) && untouched) {
            target = State.OPEN;
        } else if (newerOperator) {
            target = found.state().isForced() ? State.CLOSED : null; // only the release's time comes back
        } else {
            return found;
        }
        long now = store.nowMillis();
        ItemLayout.Write write;
        if (target == null) {
            write = new ItemLayout.Write(name).set(ItemLayout.EXPIRES_AT, n(store.expiresAt()));
        } else {
            write = ItemLayout.transition(name, target, TransitionCause.STORE_RESET, now, store.expiresAt());
            if (target == State.OPEN) {
                long probeAt = lost == State.HALF_OPEN ? remembered.leaseUntil() : remembered.probeAt();
                WaitReason reason = remembered.waitReason() != null ? remembered.waitReason() : WaitReason.CONFIGURED;
                ItemLayout.reopen(write, probeAt, remembered.attempts(), reason);
                if (!remembered.tripped().isEmpty()) {
                    write.set(ItemLayout.TRIPPED, s(remembered.tripped()));
                }
                ItemLayout.resetWindow(write);
            } else {
                ItemLayout.endEpisode(write);
                if (target != State.FORCED_OPEN) {
                    ItemLayout.resetWindow(write);
                }
            }
        }
        if (newerOperator) {
            write.set(ItemLayout.OPERATOR_AT, n(remembered.operatorAt()));
        }
        write.when(write.ref(ItemLayout.INCARNATION) + " = " + write.val("found_inc", s(found.incarnation())) + " AND "
                + ItemLayout.atVersion(write, found));
        FleetItem after = updateOrNull(write);
        if (after == null) {
            return read(); // another instance put it back first, or the new item changed meanwhile
        }
        if (target != null) {
            LOG.warn("Breaker state store lost the shared state: store=dynamodb table=" + store.table() + " breaker="
                    + name + " remembered=" + lost + " putBack=" + target
                    + (target == State.OPEN ? " probeAt=" + after.probeAt() : "")
                    + "; put back from this instance's memory (a lost item never closes the fleet)");
        }
        return after;
    }

    /** Renews the TTL attribute of an item only read for a long time (a forced state nobody changes). */
    FleetItem renewExpiry() {
        return update(new ItemLayout.Write(name).set(ItemLayout.EXPIRES_AT, n(store.expiresAt())));
    }

    /**
     * The write; if its condition failed, the item as it is, or the write again on an item that was
     * missing: one this read created, or one still at its first version (another instance's first
     * read may have created it between this write and this read).
     */
    private FleetItem update(ItemLayout.Write write) {
        return write(write).item();
    }

    /** {@link #update}, telling whether the write was applied. */
    private Written write(ItemLayout.Write write) {
        if (!seen) {
            read(); // a write's condition cannot tell a missing item from a lost race: make sure it exists
        }
        FleetItem updated = updateOrNull(write);
        if (updated != null) {
            return new Written(updated, true);
        }
        Read now = readOrCreate();
        if (now.created() || now.item().version() == 1) {
            updated = updateOrNull(write);
        }
        return updated != null ? new Written(updated, true) : new Written(now.item(), false);
    }

    /** A conditional write's outcome: the item after it, or as it is when the condition failed. */
    private record Written(FleetItem item, boolean applied) {}

    private FleetItem updateOrNull(ItemLayout.Write write) {
        long sent = store.nowMillis();
        try {
            UpdateItemResponse response = store.client().updateItem(write.build(store.table()));
            store.sawAnswer(response, sent);
            return FleetItem.of(response.attributes());
        } catch (ConditionalCheckFailedException lost) {
            return null;
        }
    }
}
