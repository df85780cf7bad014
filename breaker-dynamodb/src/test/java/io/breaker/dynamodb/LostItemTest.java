package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(10)
            .minimumNumberOfCalls(2)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(60))
            .probeLease(Duration.ofSeconds(5))
            .build();

    private static final String BREAKER = "pay";

    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);
    /** The links' clock: moved past the cache TTL, it makes each link's next touch refresh. */
    private final AtomicLong nanos = new AtomicLong();

    private final String table = DYNALITE.createTable();
    private final List<DynamoStateStore> stores = new ArrayList<>();
    private final List<SharedState> fleet = new ArrayList<>();
    private final List<List<SharedVerdict>> adopted = new ArrayList<>();

    @AfterEach
    void closeStores() {
        stores.forEach(DynamoStateStore::close);
    }

    private void startFleet(int size) throws InterruptedException {
        for (int i = 0; i < size; i++) {
            DynamoStateStore store =
                    new DynamoStateStore(DYNALITE.client(), Dynalite.patient(table), name -> true, wall::get);
            stores.add(store);
            SharedState link = store.attach(BREAKER, CONFIG);
            List<SharedVerdict> seen = new CopyOnWriteArrayList<>();
            link.connect(seen::add, nanos::get);
            Dynalite.await(() -> !seen.isEmpty());
            fleet.add(link);
            adopted.add(seen);
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
        nanos.addAndGet(Dynalite.patient(table).stateCacheTtl().toNanos());
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
        DYNALITE.client().deleteTable(request -> request.tableName(table));
        // While the table is missing, requests fail: the instances keep their OPEN (nothing to adopt).
        assertThat(fleet.get(1).tryAcquireProbe().state()).isEqualTo(State.OPEN);
        assertThat(stores.get(1).getFailureCount()).isPositive();
        DYNALITE.createTable(table); // whoever provisions the table creates it again, empty

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
        ExecutorService threads = Executors.newFixedThreadPool(fleet.size());
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<SharedVerdict>> answers = new ArrayList<>();
            for (SharedState link : fleet) {
                answers.add(threads.submit(() -> {
                    start.await();
                    return link.tryAcquireProbe();
                }));
            }
            start.countDown();
            List<State> states = new ArrayList<>();
            for (Future<SharedVerdict> answer : answers) {
                states.add(answer.get(30, TimeUnit.SECONDS).state());
            }
            assertThat(states).containsOnly(State.OPEN, State.HALF_OPEN);
            assertThat(states).filteredOn(state -> state == State.HALF_OPEN).hasSize(1);
        } finally {
            threads.shutdownNow();
        }
    }

    private void deleteItem() {
        DYNALITE.client()
                .deleteItem(request -> request.tableName(table).key(Map.of("breaker", AttributeValue.fromS(BREAKER))));
    }

    private Map<String, AttributeValue> item() {
        return DYNALITE.client()
                .getItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS(BREAKER)))
                        .consistentRead(true))
                .item();
    }
}
