package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The protocol's rules on a real DynamoDB API (dynalite), one link per instance, on a wall clock the
 * test moves: no test here waits for time to pass.
 */
class DynamoProtocolTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG =
            DynamoStores.windowOfTen(2).probeLease(Duration.ofSeconds(5)).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    /** The fleet's wall clock (ms); every instance reads it, so no skew here. */
    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);

    private SharedState instance(String breaker) {
        // The refresh that connect starts answers first: an instance's own later answers are then never
        // overtaken by it (an overtaken answer is adopted through the newer one, and its caller gets null).
        try {
            return DynamoStores.warmLink(stores.store(stores.patient(), wall::get), breaker, CONFIG, () -> 0L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theFirstTripFixesTheReopenTime() {
        SharedState a = instance("pay");
        SharedState b = instance("pay");
        assertThat(a.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.CLOSED); // 1 call: below minimum
        SharedVerdict tripped = b.recordFailure(CallOutcome.FAILURE);
        assertThat(tripped.state()).isEqualTo(State.OPEN);
        assertThat(tripped.cause()).isEqualTo(TransitionCause.FAILURE_RATE);
        assertThat(tripped.tripped()).isEqualTo(new SharedVerdict.Counts(2, 2, 0));
        assertThat(tripped.remainingNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(60));

        wall.addAndGet(10_000);
        SharedVerdict late = a.recordFailure(CallOutcome.FAILURE, TimeUnit.SECONDS.toNanos(60), WaitReason.CONFIGURED);
        assertThat(late.state()).isEqualTo(State.OPEN);
        assertThat(late.remainingNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(50)); // not pushed back
    }

    @Test
    void exactlyOneInstanceWinsTheProbeLease() throws Exception {
        List<SharedState> fleet = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            fleet.add(instance("stock"));
        }
        fleet.get(0).recordFailure(CallOutcome.FAILURE);
        assertThat(fleet.get(1).recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN);
        assertThat(fleet.get(2).tryAcquireProbe().state()).isEqualTo(State.OPEN); // the wait is not over
        wall.addAndGet(60_000);

        List<State> states = DynamoStores.probeAtOnce(fleet);
        assertThat(states).containsOnly(State.OPEN, State.HALF_OPEN);
        assertThat(states).filteredOn(state -> state == State.HALF_OPEN).hasSize(1);
    }

    @Test
    void onlyTheLeaseHolderCloses() {
        SharedState holder = instance("ship");
        SharedState other = instance("ship");
        holder.recordFailure(CallOutcome.FAILURE);
        holder.recordFailure(CallOutcome.FAILURE);
        wall.addAndGet(60_000);
        assertThat(holder.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);

        SharedVerdict refused = other.probesSucceeded();
        assertThat(refused.state()).isEqualTo(State.OPEN); // another's lease: it reads OPEN until the lease runs out
        assertThat(refused.remainingNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(5));

        assertThat(holder.probesSucceeded().state()).isEqualTo(State.CLOSED);
        assertThat(other.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.CLOSED); // a fresh window
    }

    @Test
    void aLeaseThatRanOutGoesToTheNextInstanceAndItsOldHolderCannotClose() {
        SharedState first = instance("mail");
        SharedState second = instance("mail");
        first.recordFailure(CallOutcome.FAILURE);
        first.recordFailure(CallOutcome.FAILURE);
        wall.addAndGet(60_000);
        assertThat(first.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
        assertThat(second.tryAcquireProbe().state()).isEqualTo(State.OPEN);
        wall.addAndGet(5_000); // the lease runs out without a report
        assertThat(second.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
        assertThat(first.probesSucceeded().state()).isEqualTo(State.OPEN);
    }

    @Test
    void aFailedProbeReopensForTheWaitTheInstanceComputed() {
        SharedState holder = instance("search");
        holder.recordFailure(CallOutcome.FAILURE);
        holder.recordFailure(CallOutcome.FAILURE);
        wall.addAndGet(60_000);
        SharedVerdict lease = holder.tryAcquireProbe();
        assertThat(lease.state()).isEqualTo(State.HALF_OPEN);
        SharedVerdict reopened = holder.probeFailed(1, TimeUnit.SECONDS.toNanos(120), WaitReason.BACKOFF);
        assertThat(reopened.state()).isEqualTo(State.OPEN);
        assertThat(reopened.cause()).isEqualTo(TransitionCause.PROBE_FAILED);
        assertThat(reopened.remainingNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(120));
        assertThat(reopened.failedProbes()).isEqualTo(1);
        assertThat(reopened.waitReason()).isEqualTo(WaitReason.BACKOFF);
    }

    @Test
    void theNewestOperatorActionWins() {
        SharedState a = instance("tax");
        SharedState b = instance("tax");
        assertThat(a.operatorSets(State.FORCED_OPEN).state()).isEqualTo(State.FORCED_OPEN);
        wall.addAndGet(-1_000); // b's action is older (replayed late, or its clock is behind)
        assertThat(b.operatorSets(State.FORCED_CLOSED).state()).isEqualTo(State.FORCED_OPEN);
        wall.addAndGet(2_000);
        assertThat(b.operatorSets(State.CLOSED).state()).isEqualTo(State.CLOSED);
    }

    @Test
    void anOperatorActionRacingTheFirstReadsOfANewItemIsApplied() {
        // Each new instance's first refresh reads the item, finds none and creates it, while the first
        // instance's operator write is on its way: that write may find no item, and the read after it
        // the item another refresh created meanwhile. A race, so it is played on many breakers.
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            String name = "vat-" + i;
            SharedState first = instance(name);
            instance(name);
            SharedVerdict answer = first.operatorSets(State.FORCED_OPEN);
            String inTable = item(name).get("state").s();
            // No answer to adopt (null) only if a newer version answered first: the table tells.
            if ((answer != null && answer.state() != State.FORCED_OPEN) || !"FORCED_OPEN".equals(inTable)) {
                lost.add(name + ": answered " + (answer == null ? null : answer.state()) + ", table " + inTable);
            }
        }
        assertThat(lost).isEmpty();
    }

    @Test
    void anExpiredTtlAttributeDecidesNothing() {
        SharedState a = instance("fx");
        a.recordFailure(CallOutcome.FAILURE);
        assertThat(a.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN);
        // DynamoDB deletes expired items "typically within a few days": until then they are read as they are.
        DYNALITE.client()
                .updateItem(request -> request.tableName(stores.table())
                        .key(Map.of("breaker", AttributeValue.fromS("fx")))
                        .updateExpression("SET expires_at = :past")
                        .expressionAttributeValues(Map.of(":past", AttributeValue.fromN("1"))));
        SharedState late = instance("fx");
        assertThat(late.tryAcquireProbe().state()).isEqualTo(State.OPEN);
        assertThat(late.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN);
    }

    @Test
    void successesCountedInAWindowThatEndedAreDropped() throws Exception {
        SharedState a = DynamoStores.seeingLink(stores.store(stores.patient(), wall::get), "geo", CONFIG, () -> 0L)
                .link();
        for (int i = 0; i < 8; i++) {
            a.recordSuccess(); // counted in memory, in the window of the first epoch
        }
        SharedState b = instance("geo");
        b.recordFailure(CallOutcome.FAILURE);
        b.recordFailure(CallOutcome.FAILURE);
        wall.addAndGet(60_000);
        assertThat(b.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
        assertThat(b.probesSucceeded().state()).isEqualTo(State.CLOSED);
        // a's 8 successes belong to the window before the trip: with them, 2 failures of 10 would not trip.
        assertThat(a.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.CLOSED);
        assertThat(a.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN);
    }

    @Test
    void aSpentLeaseIsKnownByItsIncarnationNotByItsVersionAlone() {
        SharedState holder = instance("loan");
        holder.recordFailure(CallOutcome.FAILURE);
        holder.recordFailure(CallOutcome.FAILURE);
        wall.addAndGet(60_000);
        SharedVerdict lease = holder.tryAcquireProbe();
        assertThat(lease.state()).isEqualTo(State.HALF_OPEN);
        long spentVersion = Long.parseLong(item("loan").get("ver").n());
        assertThat(holder.probeFailed().state()).isEqualTo(State.OPEN); // the lease of that version is spent

        // The item is lost and created again by an instance that never saw it: its versions start again.
        DYNALITE.client()
                .deleteItem(request ->
                        request.tableName(stores.table()).key(Map.of("breaker", AttributeValue.fromS("loan"))));
        SharedState newcomer = instance("loan");
        newcomer.recordFailure(CallOutcome.FAILURE);
        assertThat(newcomer.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN);
        wall.addAndGet(60_000);

        // The old holder wins the lease of the new item, at the version its spent lease had.
        SharedVerdict again = holder.tryAcquireProbe();
        assertThat(item("loan").get("ver").n()).isEqualTo(Long.toString(spentVersion));
        assertThat(again.state()).isEqualTo(State.HALF_OPEN);
        assertThat(newcomer.tryAcquireProbe().state()).isEqualTo(State.OPEN);
    }

    private Map<String, AttributeValue> item(String breaker) {
        return stores.item(breaker);
    }
}
