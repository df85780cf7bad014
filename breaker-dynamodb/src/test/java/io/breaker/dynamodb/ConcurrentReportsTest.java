package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.SlidingWindowType;
import io.breaker.WaitReason;
import io.breaker.spi.OutcomeBits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many instances report at once into a small count-based window, so that nearly every report starts a
 * new block and most writes lose their condition to another instance's: each report must still be
 * counted, however often it has to read and try again (one whose write keeps losing is not dropped).
 */
class ConcurrentReportsTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private static final int INSTANCES = 8;
    private static final int REPORTS = 40;

    /** A batch of successes fills a block: every report moves the window on, never trips. */
    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(2)
            .minimumNumberOfCalls(2)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(60))
            .build();

    @Test
    void everyBatchOfSuccessesOfInstancesRacingForTheNextBlockIsCounted() throws Exception {
        assertThat(race(CONFIG, report -> 0))
                .as("reports deferred of %d", INSTANCES * REPORTS)
                .isZero();
    }

    /** Failures as well: a failed call always starts a new block of a full one, so those writes do race. */
    @Test
    void everyFailureAndBatchOfInstancesRacingForTheNextBlockIsCounted() throws Exception {
        BreakerConfig neverTrips = CONFIG.toBuilder().failureRateThreshold(100).build(); // every report has successes
        int failure = OutcomeBits.of(CallOutcome.FAILURE);

        assertThat(race(neverTrips, report -> report % 2 == 0 ? failure : 0))
                .as("reports deferred of %d", INSTANCES * REPORTS)
                .isZero();
    }

    /**
     * {@link #INSTANCES} instances each send {@link #REPORTS} reports of 3 successes (and the outcome
     * {@code bits} gives the report's number) at once; returns how many times a report was deferred.
     */
    private long race(BreakerConfig config, IntUnaryOperator bits) throws Exception {
        List<DynamoStateStore> instances = new ArrayList<>();
        List<FleetTable> tables = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            DynamoStateStore store = stores.store(stores.patient());
            instances.add(store);
            tables.add(new FleetTable(store, "pay"));
        }
        long epoch = tables.get(0).read().window().epoch();
        ExecutorService threads = Executors.newFixedThreadPool(INSTANCES);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (FleetTable table : tables) {
                done.add(threads.submit(() -> {
                    start.await();
                    for (int r = 0; r < REPORTS; r++) {
                        table.report(
                                table.read(),
                                config,
                                table.nextSequence(),
                                -1L,
                                bits.applyAsInt(r),
                                3,
                                epoch,
                                System.currentTimeMillis(),
                                0L,
                                WaitReason.CONFIGURED);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        return instances.stream()
                .mapToLong(DynamoStateStore::getDeferredReportCount)
                .sum();
    }
}
