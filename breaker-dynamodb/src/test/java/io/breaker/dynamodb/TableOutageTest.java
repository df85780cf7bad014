package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spring.store.StoreFailureMode;
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

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(4).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private DynamoStateStore store;

    private DynamoStateStore store(StoreFailureMode mode) {
        store = stores.store(
                stores.settings(Duration.ofMillis(300), Duration.ofMillis(100), mode, Duration.ofMillis(500)));
        return store;
    }

    @Test
    void whileTheTableIsSilentEachInstanceProtectsItselfAndNoCallerSeesAnError() throws Exception {
        CircuitBreaker breaker = stores.breaker(store(StoreFailureMode.PROTECT_LOCALLY), CONFIG, "pay");
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
        CircuitBreaker breaker = stores.breaker(store(StoreFailureMode.PROTECT_LOCALLY), CONFIG, "pay");
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
        return stores.item(breaker);
    }

    @Test
    void rejectModeReadsOpenDuringAnOutageAndClosedAfterIt() throws Exception {
        DynamoStateStore rejecting = store(StoreFailureMode.REJECT);
        SharedState link = DynamoStores.warmLink(rejecting, "stock", CONFIG, NanoClock.system());
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
        // The answers to what was sent during the pause can come late enough to declare the table down
        // again (and an answer held during the pause can make it read available before the resume);
        // then only a refresh, which every call rejected meanwhile asks for, finds it up again.
        Dynalite.await(() -> {
            link.touch();
            SharedVerdict after = link.tryAcquireProbe();
            return after != null && after.state() == State.CLOSED;
        });
    }

    @Test
    void rejectModeHoldsABreakerThatOnlySucceedsOpenUntilTheTableAnswers() throws Exception {
        CircuitBreaker breaker = stores.breaker(store(StoreFailureMode.REJECT), CONFIG, "ship");
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
