package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.State;
import io.breaker.WaitReason;
import io.breaker.spi.OutcomeBits;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Successes an instance counted in memory reach the fleet's window later than the failures other
 * instances reported meanwhile. The window must still read them as the older calls they are: the
 * fleet trips after as many failures as one in-memory breaker that saw every call in its real order.
 * One link per instance, on a wall clock the test moves; no refresh runs between the steps (the
 * links' own clock stands still), so every batch of successes travels with its instance's next failure.
 */
class FleetWindowOrderTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(10).build();

    /** The same, evaluated from 5 calls on: a block's first failure can then trip with the next four. */
    private static final BreakerConfig FROM_FIVE_CALLS =
            CONFIG.toBuilder().minimumNumberOfCalls(5).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);

    /**
     * One call's outcome on one instance; or, when {@code sentAlone}, no call: the instance's refresh
     * sends the successes it counted so far, alone, before the next step.
     */
    private record Call(int instance, boolean failed, boolean sentAlone) {
        Call(int instance, boolean failed) {
            this(instance, failed, false);
        }

        static Call refresh(int instance) {
            return new Call(instance, false, true);
        }
    }

    private static List<Call> successesThenFailures(int[] successes, int[] failureOrder) {
        List<Call> calls = new ArrayList<>();
        for (int instance = 0; instance < successes.length; instance++) {
            for (int i = 0; i < successes[instance]; i++) {
                calls.add(new Call(instance, false));
            }
        }
        for (int round = 0; round < 4; round++) {
            for (int instance : failureOrder) {
                calls.add(new Call(instance, true));
            }
        }
        return calls;
    }

    @Test
    void successesCountedBeforeOtherInstancesFailuresDoNotDiluteThem() throws Exception {
        // Three instances count 4, 3 and 3 successes, then fail in turn, the second one first.
        List<Call> calls = successesThenFailures(new int[] {4, 3, 3}, new int[] {1, 2, 0});
        assertThat(failuresUntilTheFleetOpens(3, calls)).isEqualTo(failuresUntilOneBreakerOpens(calls));
    }

    @Test
    void successesAndFailuresInterleavedTripAfterAsManyFailuresAsOneBreaker() throws Exception {
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(new Call(0, false));
        }
        for (int i = 0; i < 4; i++) {
            calls.add(new Call(3, false));
        }
        calls.add(new Call(1, true)); // the first failure of the block
        calls.add(new Call(2, false)); // newer than that failure: they count with it
        calls.add(new Call(2, false));
        calls.add(new Call(2, true));
        calls.add(new Call(3, true)); // carries 4 older successes
        calls.add(new Call(1, true));
        calls.add(new Call(0, true)); // carries 6 older successes
        for (int round = 0; round < 4; round++) {
            calls.add(new Call(2, true));
            calls.add(new Call(1, true));
        }
        assertThat(failuresUntilTheFleetOpens(4, calls)).isEqualTo(failuresUntilOneBreakerOpens(calls));
    }

    /**
     * A failure report carries its instance's successes since its last report, all older than that
     * failure: when it is the block's first failure, a batch as large as a block must not turn it into a
     * fraction of a call.
     */
    @Test
    void aBlockSizedBatchCarriedByTheBlocksFirstFailureDoesNotDiluteIt() throws Exception {
        List<Call> calls = successesThenFailures(new int[] {15, 15, 15, 15}, new int[] {0, 1, 2, 3});
        assertThat(failuresUntilTheFleetOpens(FROM_FIVE_CALLS, 4, calls))
                .isEqualTo(failuresUntilOneBreakerOpens(FROM_FIVE_CALLS, calls));
    }

    @Test
    void aSmallBatchCarriedByTheBlocksFirstFailureDoesNotDiluteItEither() throws Exception {
        List<Call> calls = successesThenFailures(new int[] {3, 3, 3, 3}, new int[] {0, 1, 2, 3});
        assertThat(failuresUntilTheFleetOpens(FROM_FIVE_CALLS, 4, calls))
                .isEqualTo(failuresUntilOneBreakerOpens(FROM_FIVE_CALLS, calls));
    }

    /**
     * The order of a fleet run that let more calls through than the guaranteed bound: a block filled
     * with successes (sent alone by a refresh) and the block's first two failures, then the next block's
     * failures, while large batches of successes, all older than every failure, travel with the
     * failures. They must not dilute the failures of the block before, which are among the last calls.
     */
    @Test
    void successesOlderThanThePreviousBlocksFailuresDoNotDiluteThem() throws Exception {
        List<Call> calls = new ArrayList<>();
        addSuccesses(calls, 2, 8);
        calls.add(Call.refresh(2));
        addSuccesses(calls, 1, 27);
        addSuccesses(calls, 0, 29);
        addSuccesses(calls, 3, 34);
        addSuccesses(calls, 2, 28);
        for (int round = 0; round < 3; round++) {
            for (int instance : new int[] {1, 0, 3, 2}) {
                calls.add(new Call(instance, true));
            }
        }
        assertThat(failuresUntilTheFleetOpens(FROM_FIVE_CALLS, 4, calls))
                .isEqualTo(failuresUntilOneBreakerOpens(FROM_FIVE_CALLS, calls));
    }

    private static void addSuccesses(List<Call> calls, int instance, int count) {
        for (int i = 0; i < count; i++) {
            calls.add(new Call(instance, false));
        }
    }

    /**
     * A batch of successes sent alone (by a refresh) whose first success is older than the block's first
     * failure: its calls are the previous block's, and the write that adds them is one DynamoDB accepts.
     */
    @Test
    void aBatchOlderThanTheBlocksFailuresSentAloneCountsAsOlderCalls() throws Exception {
        FleetTable failing = new FleetTable(stores.store(stores.patient(), wall::get), "orders");
        FleetTable succeeding = new FleetTable(stores.store(stores.patient(), wall::get), "orders");
        long epoch = failing.read().window().epoch();
        long successesSince = wall.get();
        wall.incrementAndGet();
        failing.report(
                failing.read(),
                CONFIG,
                failing.nextSequence(),
                -1L,
                OutcomeBits.of(CallOutcome.FAILURE),
                0,
                epoch,
                0L,
                0L,
                WaitReason.CONFIGURED);

        FleetItem after = succeeding.report(
                succeeding.read(),
                CONFIG,
                succeeding.nextSequence(),
                -1L,
                0,
                3,
                epoch,
                successesSince,
                0L,
                WaitReason.CONFIGURED);

        assertThat(after.window().previousCalls()).isEqualTo(3);
        assertThat(after.window().calls()).isEqualTo(1);
        assertThat(after.window().failed()).isEqualTo(1);
    }

    /** Plays the calls on a fleet of {@code size} links; returns the failures reported when one read OPEN. */
    private int failuresUntilTheFleetOpens(int size, List<Call> calls) throws InterruptedException {
        return failuresUntilTheFleetOpens(CONFIG, size, calls);
    }

    private int failuresUntilTheFleetOpens(BreakerConfig config, int size, List<Call> calls)
            throws InterruptedException {
        List<SharedState> fleet = new ArrayList<>();
        List<AtomicLong> clocks = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            // One refresh now, then only those a step asks for: each link's clock stands still until then.
            AtomicLong clock = new AtomicLong();
            clocks.add(clock);
            fleet.add(DynamoStores.seeingLink(stores.store(stores.patient(), wall::get), "orders", config, clock::get)
                    .link());
        }
        int failures = 0;
        for (Call call : calls) {
            wall.incrementAndGet(); // one millisecond between two calls
            SharedState link = fleet.get(call.instance());
            if (call.sentAlone()) {
                long counted = countedCalls();
                clocks.get(call.instance())
                        .addAndGet(stores.patient().stateCacheTtl().toNanos());
                link.touch(); // its refresh is due: it sends the batch
                Dynalite.await(() -> countedCalls() > counted);
                continue;
            }
            if (!call.failed()) {
                link.recordSuccess();
                continue;
            }
            failures++;
            SharedVerdict verdict = link.recordFailure(CallOutcome.FAILURE);
            if (verdict.state() == State.OPEN) {
                return failures;
            }
        }
        throw new AssertionError("the fleet never opened after " + failures + " failures");
    }

    /** The calls the fleet's window holds, both blocks. */
    private long countedCalls() {
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item = stores.item("orders");
        return Long.parseLong(item.get(ItemLayout.CURRENT_CALLS).n())
                + Long.parseLong(item.get(ItemLayout.PREVIOUS_CALLS).n());
    }

    /** Plays the same calls, in the same order, on one in-memory breaker with the same settings. */
    private static int failuresUntilOneBreakerOpens(List<Call> calls) {
        return failuresUntilOneBreakerOpens(CONFIG, calls);
    }

    private static int failuresUntilOneBreakerOpens(BreakerConfig config, List<Call> calls) {
        CircuitBreaker breaker =
                BreakerRegistry.of(config, Map.of(), NanoClock.system()).breaker("orders");
        int failures = 0;
        for (Call call : calls) {
            if (call.sentAlone()) {
                continue;
            }
            long permit = breaker.tryAcquirePermit();
            if (!call.failed()) {
                breaker.onSuccess(permit, 0L);
                continue;
            }
            failures++;
            breaker.onError(permit, 0L, new IOException("down"));
            if (breaker.getState() == State.OPEN) {
                return failures;
            }
        }
        throw new AssertionError("one breaker never opened after " + failures + " failures");
    }
}
