package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.State;
import io.breaker.spi.SharedState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instances whose wall clocks are offset on purpose. The protocol's times are the instances' clocks:
 * a probe lease stays exclusive while two clocks differ by less than the lease, and the holder keeps
 * it for the lease minus their difference. The store measures its own offset from DynamoDB's clock.
 */
class ClockSkewTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final long LEASE_MS = 5_000;

    private static final BreakerConfig CONFIG =
            DynamoStores.windowOfTen(2).probeLease(Duration.ofMillis(LEASE_MS)).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    /** True time, moved by the test; each instance reads it with its own offset. */
    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);

    private SharedState instance(long offsetMillis) {
        return DynamoStores.link(
                stores.store(stores.patient(), () -> now.get() + offsetMillis), "pay", CONFIG, () -> 0L);
    }

    private void tripAndWait(SharedState reporter) {
        reporter.recordFailure(CallOutcome.FAILURE);
        assertThat(reporter.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.OPEN);
        now.addAndGet(120_000); // well past the wait on every clock
    }

    @Test
    void aHolderWhoseClockIsBehindKeepsTheLeaseForTheLeaseMinusTheSkew() {
        long skew = 3_000; // below the lease
        SharedState behind = instance(-skew);
        SharedState onTime = instance(0);
        tripAndWait(onTime);

        assertThat(behind.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
        now.addAndGet(LEASE_MS - skew - 1);
        assertThat(onTime.tryAcquireProbe().state()).isEqualTo(State.OPEN); // still exclusive
        now.addAndGet(1);
        assertThat(onTime.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN); // the lease ran out on its clock
    }

    @Test
    void aHolderWhoseClockIsAheadKeepsTheLeaseLonger() {
        SharedState ahead = instance(3_000);
        SharedState onTime = instance(0);
        tripAndWait(onTime);

        assertThat(ahead.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
        now.addAndGet(LEASE_MS + 3_000 - 1);
        assertThat(onTime.tryAcquireProbe().state()).isEqualTo(State.OPEN);
    }

    @Test
    void aSkewBeyondTheLeaseLetsASecondProbeInAtOnce() {
        // The limit the docs state: with clocks further apart than the lease, the lease protects nothing.
        SharedState behind = instance(-(LEASE_MS + 1_000));
        SharedState onTime = instance(0);
        tripAndWait(onTime);

        assertThat(behind.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
        assertThat(onTime.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void theStoreMeasuresItsOffsetFromDynamoDbsClock() {
        long offset = 5_000;
        DynamoStateStore store = stores.store(stores.patient(), () -> System.currentTimeMillis() + offset);
        SharedState link = DynamoStores.link(store, "clock", CONFIG, () -> 0L);
        for (int i = 0; i < 5; i++) {
            link.operatorSets(State.CLOSED); // any answer carries the server's Date header
        }
        long estimate = store.getClockSkew().orElseThrow().toMillis();
        long uncertainty = store.getClockSkewUncertainty().orElseThrow().toMillis();
        assertThat(Math.abs(estimate - offset)).isLessThanOrEqualTo(uncertainty + 1);
        assertThat(uncertainty).isLessThanOrEqualTo(1_000); // one Date header's resolution, or better

        DynamoStoreStatus.Report report = new DynamoStoreStatus(store).check();
        assertThat(report.toleratedSkew()).isEqualTo(Duration.ofMillis(LEASE_MS / 2));
        assertThat(report.skewWithinTolerance()).isFalse(); // 5 s off, 2.5 s tolerated
        assertThat(report.details()).containsKeys("clockSkew", "clockSkewUncertainty", "toleratedSkew");
    }
}
