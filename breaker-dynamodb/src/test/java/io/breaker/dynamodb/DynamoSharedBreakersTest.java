package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.State;
import io.breaker.spi.SharedState;
import io.breaker.spring.actuate.FleetChange;
import io.breaker.spring.actuate.StoreDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the {@code breakers} endpoint learns of the table through {@link DynamoSharedBreakers}, on a
 * real DynamoDB API (dynalite): the store, what an operator's change did to the fleet, and the
 * fleet's state as this instance last read it.
 */
class DynamoSharedBreakersTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(4).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);
    /** The breakers' clock (ns): moved by the tests. */
    private final AtomicLong nanos = new AtomicLong();

    private DynamoStateStore store(DynamoStoreSettings settings) {
        return stores.store(settings, wall::get);
    }

    private static SharedState attach(DynamoStateStore store, String breaker, AtomicLong nanos)
            throws InterruptedException {
        return DynamoStores.warmLink(store, breaker, CONFIG, nanos::get);
    }

    @Test
    void theStoreIsDescribedAsDynamoDb() {
        DynamoSharedBreakers breakers = new DynamoSharedBreakers(store(stores.patient()));

        assertThat(breakers.store()).isEqualTo(new StoreDescriptor("dynamodb", true, false, "protect-locally"));
    }

    @Test
    void anOperatorChangeTellsWhetherItChangedTheFleet() throws Exception {
        DynamoStateStore store = store(stores.patient());
        DynamoSharedBreakers breakers = new DynamoSharedBreakers(store);
        SharedState shared = attach(store, "pay", nanos);
        assertThat(breakers.lastOperatorChange("pay")).isNull(); // none yet

        shared.operatorSets(State.FORCED_OPEN);
        assertThat(breakers.lastOperatorChange("pay")).isEqualTo(FleetChange.CHANGED);

        wall.addAndGet(1);
        shared.operatorSets(State.FORCED_OPEN);
        assertThat(breakers.lastOperatorChange("pay")).isEqualTo(FleetChange.UNCHANGED);

        assertThat(breakers.lastOperatorChange("not-shared")).isNull();
    }

    @Test
    void anOperatorChangeWithoutAnAnswerIsUnknown() throws Exception {
        DynamoStateStore store =
                store(stores.patient().withTimeout(Duration.ofMillis(200)).withOutageAfter(Duration.ofSeconds(30)));
        DynamoSharedBreakers breakers = new DynamoSharedBreakers(store);
        SharedState shared = attach(store, "pay", nanos);

        DYNALITE.pause();
        assertThat(shared.operatorSets(State.FORCED_OPEN)).isNull();

        assertThat(breakers.lastOperatorChange("pay")).isEqualTo(FleetChange.UNKNOWN);
    }

    @Test
    void theFleetsStateIsTheOneLastReadWithItsAge() throws Exception {
        DynamoStateStore store = store(stores.patient());
        DynamoSharedBreakers breakers = new DynamoSharedBreakers(store);
        assertThat(breakers.fleet("pay")).isNull(); // not shared yet
        SharedState shared = attach(store, "pay", nanos);
        Dynalite.await(() -> breakers.fleet("pay") != null);
        assertThat(breakers.fleet("pay").state()).isEqualTo(State.CLOSED);

        shared.operatorSets(State.FORCED_OPEN);
        nanos.addAndGet(Duration.ofMillis(1500).toNanos());

        assertThat(breakers.fleet("pay").state()).isEqualTo(State.FORCED_OPEN);
        assertThat(breakers.fleet("pay").age()).isEqualTo(Duration.ofMillis(1500));
    }

    /**
     * Releasing a breaker the fleet has CLOSED already (back to automatic: nothing to release) changes
     * nothing but the time of the newest action: the failures the fleet's window counted still count.
     */
    @Test
    void releasingAClosedBreakerKeepsTheFleetsWindow() throws Exception {
        DynamoStateStore a = store(stores.patient());
        DynamoStateStore b = store(stores.patient());
        DynamoSharedBreakers seenFromB = new DynamoSharedBreakers(b);
        SharedState first = attach(a, "stock", nanos);
        SharedState second = attach(b, "stock", new AtomicLong());
        for (int i = 0; i < 3; i++) {
            assertThat(first.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.CLOSED); // below the minimum
        }

        assertThat(second.operatorSets(State.CLOSED).state()).isEqualTo(State.CLOSED);
        assertThat(seenFromB.lastOperatorChange("stock")).isEqualTo(FleetChange.UNCHANGED);

        assertThat(first.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN); // 4 of 4 calls failed
    }
}
