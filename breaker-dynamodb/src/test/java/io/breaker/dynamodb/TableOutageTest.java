package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table stops answering (dynalite under SIGSTOP): callers stop waiting after the store's
 * timeout, an outage is declared from the pattern of unanswered operations, the failure mode
 * applies, and the store recovers when the table answers again.
 */
class TableOutageTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(10)
            .minimumNumberOfCalls(4)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(60))
            .build();

    private final String table = DYNALITE.createTable();
    private DynamoStateStore store;

    @AfterEach
    void resumeAndClose() throws Exception {
        DYNALITE.resume();
        if (store != null) {
            store.close();
        }
    }

    private DynamoStateStore store(StoreFailureMode mode) {
        store = new DynamoStateStore(
                DYNALITE.client(),
                new DynamoStoreSettings(
                        table,
                        Duration.ofMillis(300),
                        Duration.ofMillis(100),
                        mode,
                        Duration.ofDays(1),
                        Duration.ofMillis(500)));
        return store;
    }

    @Test
    void whileTheTableIsSilentEachInstanceProtectsItselfAndNoCallerSeesAnError() throws Exception {
        BreakerRegistry registry =
                BreakerRegistry.of(CONFIG, Map.of(), NanoClock.system(), store(StoreFailureMode.PROTECT_LOCALLY));
        CircuitBreaker breaker = registry.breaker("pay");
        Dynalite.await(store::isWarm);
        DYNALITE.pause();

        for (int i = 0; i < 4; i++) {
            long permit = breaker.tryAcquirePermit();
            assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
            breaker.onError(permit, 0L, new IOException("dependency down"));
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN); // its own window tripped it
        assertThat(store.getTimeoutCount()).isPositive();
        Dynalite.await(() -> {
            breaker.tryAcquirePermit(); // rejected; a call is what starts the refresh that notices the outage
            return !store.isAvailable();
        });
        assertThat(store.getOutageCount()).isPositive();

        DYNALITE.resume();
        Dynalite.await(() -> {
            breaker.tryAcquirePermit();
            return store.isAvailable();
        });
    }

    @Test
    void aTripMadeAloneDuringAnOutageHoldsAndReachesTheTableWhenItAnswers() throws Exception {
        BreakerRegistry registry =
                BreakerRegistry.of(CONFIG, Map.of(), NanoClock.system(), store(StoreFailureMode.PROTECT_LOCALLY));
        CircuitBreaker breaker = registry.breaker("pay");
        Dynalite.await(store::isWarm);
        assertThat(item("pay").get("state").s()).isEqualTo("CLOSED");
        DYNALITE.pause();

        long before = System.currentTimeMillis();
        for (int i = 0; i < 4; i++) {
            long permit = breaker.tryAcquirePermit();
            breaker.onError(permit, 0L, new IOException("dependency down"));
        }
        long after = System.currentTimeMillis();
        assertThat(breaker.getState()).isEqualTo(State.OPEN); // tripped alone: the table heard nothing
        Dynalite.await(() -> {
            breaker.tryAcquirePermit();
            return !store.isAvailable();
        });

        // The table answers again with the CLOSED item it had before the outage (same version): not a
        // newer decision, so the trip holds, and the table takes it.
        DYNALITE.resume();
        Dynalite.await(() -> {
            breaker.tryAcquirePermit(); // rejected while OPEN: each call may start a refresh
            return breaker.getState() == State.CLOSED
                    || "OPEN".equals(item("pay").get("state").s());
        });
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        Map<String, AttributeValue> tripped = item("pay");
        assertThat(tripped.get("state").s()).isEqualTo("OPEN");
        // The first trip fixes the wait: the reopen time is the one the trip alone made, not one from
        // when the table answered.
        assertThat(Long.parseLong(tripped.get("probe_at").n()))
                .isBetween(
                        before + CONFIG.getWaitDurationInOpenState().toMillis(),
                        after + CONFIG.getWaitDurationInOpenState().toMillis());
    }

    private Map<String, AttributeValue> item(String breaker) {
        return DYNALITE.client()
                .getItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS(breaker)))
                        .consistentRead(true))
                .item();
    }

    @Test
    void rejectModeReadsOpenDuringAnOutageAndClosedAfterIt() throws Exception {
        DynamoStateStore rejecting = store(StoreFailureMode.REJECT);
        SharedState link = rejecting.attach("stock", CONFIG);
        link.connect(verdict -> {}, NanoClock.system());
        Dynalite.await(rejecting::isWarm);
        DYNALITE.pause();
        Dynalite.await(() -> {
            link.touch(); // refreshes (once per cache TTL) go unanswered
            return !rejecting.isAvailable();
        });
        assertThat(link.recordFailure(CallOutcome.FAILURE)).isEqualTo(rejecting.unavailable());
        SharedVerdict during = link.tryAcquireProbe();
        assertThat(during.state()).isEqualTo(State.OPEN);
        assertThat(during.cause()).isEqualTo(TransitionCause.STORE_UNAVAILABLE);
        assertThat(link.allowsLocalTrip()).isTrue();

        DYNALITE.resume();
        Dynalite.await(() -> {
            link.touch();
            return rejecting.isAvailable();
        });
        // The fleet never tripped: once answers come in time again, the link reads the table's CLOSED.
        Dynalite.await(() -> {
            SharedVerdict after = link.tryAcquireProbe();
            return after != null && after.state() == State.CLOSED;
        });
    }

    @Test
    void rejectModeHoldsABreakerThatOnlySucceedsOpenUntilTheTableAnswers() throws Exception {
        BreakerRegistry registry =
                BreakerRegistry.of(CONFIG, Map.of(), NanoClock.system(), store(StoreFailureMode.REJECT));
        CircuitBreaker breaker = registry.breaker("ship");
        Dynalite.await(store::isWarm);
        DYNALITE.pause();
        Dynalite.await(() -> {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.onSuccess(permit, 0L); // successes only: no failure ever asks the store
            }
            return breaker.getState() == State.OPEN;
        });
        assertThat(store.isAvailable()).isFalse();

        DYNALITE.resume();
        Dynalite.await(() -> {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.onSuccess(permit, 0L);
            }
            return breaker.getState() == State.CLOSED;
        });
    }
}
