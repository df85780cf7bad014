package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.State;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table loses a breaker's item while the fleet is OPEN or forced (the item deleted, or the whole
 * table deleted and created again empty): the instances that remember the state put it back with a
 * conditional write instead of adopting the new item's empty CLOSED, so the dependency gets no calls
 * and the wait ends when it was going to. Three links on a wall clock the test moves, refreshed by
 * moving their own clock past the cache TTL.
 */
class LostItemTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG =
            DynamoStores.windowOfTen(2).probeLease(Duration.ofSeconds(5)).build();

    private static final String BREAKER = "pay";

    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);
    /** The links' clock: moved past the cache TTL, it makes each link's next touch refresh. */
    private final AtomicLong nanos = new AtomicLong();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private final List<DynamoStateStore> instances = new ArrayList<>();
    private final List<SharedState> fleet = new ArrayList<>();
    private final List<List<SharedVerdict>> adopted = new ArrayList<>();

    private void startFleet(int size) throws InterruptedException {
        for (int i = 0; i < size; i++) {
            DynamoStateStore store = stores.store(stores.patient(), wall::get);
            instances.add(store);
            DynamoStores.Seeing link = DynamoStores.seeingLink(store, BREAKER, CONFIG, nanos::get);
            fleet.add(link.link());
            adopted.add(link.adopted());
        }
    }

    /** Trips the fleet through the first instance; every other one learns it. Returns the item. */
    private Map<String, AttributeValue> tripTheFleet() {
        fleet.get(0).recordFailure(CallOutcome.FAILURE);
        assertThat(fleet.get(0).recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN);
        for (SharedState link : fleet) {
            assertThat(link.tryAcquireProbe().state()).isEqualTo(State.OPEN); // the wait is not over
        }
        Map<String, AttributeValue> tripped = item();
        assertThat(tripped.get("state").s()).isEqualTo("OPEN");
        return tripped;
    }

    /** Every link refreshes once, one after the other; returns the state each adopted. */
    private List<State> refreshAll() throws InterruptedException {
        nanos.addAndGet(stores.patient().stateCacheTtl().toNanos());
        List<State> states = new ArrayList<>();
        for (int i = 0; i < fleet.size(); i++) {
            List<SharedVerdict> seen = adopted.get(i);
            int before = seen.size();
            fleet.get(i).touch();
            Dynalite.await(() -> seen.size() > before);
            states.add(seen.get(seen.size() - 1).state());
        }
        return states;
    }

    @Test
    void anOpenFleetWhoseItemWasDeletedPutsItBackWithItsReopenTime() throws Exception {
        startFleet(3);
        Map<String, AttributeValue> tripped = tripTheFleet();
        wall.addAndGet(10_000);
        deleteItem();

        assertThat(refreshAll()).containsOnly(State.OPEN);
        assertPutBack(tripped);
        assertOneProbeWhenTheWaitEnds(tripped);
    }

    @Test
    void anOpenFleetWhoseTableWasDeletedAndCreatedAgainPutsItsItemBack() throws Exception {
        startFleet(3);
        Map<String, AttributeValue> tripped = tripTheFleet();
        wall.addAndGet(10_000);
        DYNALITE.client().deleteTable(request -> request.tableName(stores.table()));
        // While the table is missing, requests fail: the instances keep their OPEN (nothing to adopt).
        assertThat(fleet.get(1).tryAcquireProbe().state()).isEqualTo(State.OPEN);
        assertThat(instances.get(1).getFailureCount()).isPositive();
        DYNALITE.createTable(stores.table()); // whoever provisions the table creates it again, empty

        assertThat(refreshAll()).containsOnly(State.OPEN);
        assertPutBack(tripped);
        assertOneProbeWhenTheWaitEnds(tripped);
    }

    @Test
    void aForcedStateWhoseItemWasDeletedComesBack() throws Exception {
        startFleet(2);
        assertThat(fleet.get(0).operatorSets(State.FORCED_OPEN).state()).isEqualTo(State.FORCED_OPEN);
        refreshAll();
        Map<String, AttributeValue> forced = item();
        wall.addAndGet(10_000);
        deleteItem();

        assertThat(refreshAll()).containsOnly(State.FORCED_OPEN);
        Map<String, AttributeValue> back = item();
        assertThat(back.get("inc").s()).isNotEqualTo(forced.get("inc").s());
        assertThat(back.get("state").s()).isEqualTo("FORCED_OPEN");
        assertThat(back.get("op_at").n()).isEqualTo(forced.get("op_at").n());
    }

    private void assertPutBack(Map<String, AttributeValue> tripped) {
        Map<String, AttributeValue> back = item();
        assertThat(back.get("inc").s()).isNotEqualTo(tripped.get("inc").s()); // a new item...
        assertThat(back.get("state").s()).isEqualTo("OPEN"); // ...with the fleet's state
        assertThat(back.get("probe_at").n()).isEqualTo(tripped.get("probe_at").n());
        assertThat(back.get("tripped").s()).isEqualTo(tripped.get("tripped").s());
    }

    private void assertOneProbeWhenTheWaitEnds(Map<String, AttributeValue> tripped) throws Exception {
        wall.set(Long.parseLong(tripped.get("probe_at").n()));
        List<State> states = DynamoStores.probeAtOnce(fleet);
        assertThat(states).containsOnly(State.OPEN, State.HALF_OPEN);
        assertThat(states).filteredOn(state -> state == State.HALF_OPEN).hasSize(1);
    }

    private void deleteItem() {
        DYNALITE.client()
                .deleteItem(request ->
                        request.tableName(stores.table()).key(Map.of("breaker", AttributeValue.fromS(BREAKER))));
    }

    private Map<String, AttributeValue> item() {
        return stores.item(BREAKER);
    }
}
