package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller on an event loop (here a thread of Reactor's parallel scheduler, a non-blocking one) never
 * waits for the table: its failure report and its probe request are sent, the breaker decides
 * locally meanwhile, and the table's answer is adopted when it comes. A caller on an ordinary thread
 * waits up to the store timeout, as the store promises for blocking callers.
 */
class EventLoopCallerTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(4).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private DynamoStateStore store;

    private CircuitBreaker sharedBreaker() throws InterruptedException {
        store = stores.store(stores.settings(
                Duration.ofSeconds(2),
                Duration.ofMillis(200),
                StoreFailureMode.PROTECT_LOCALLY,
                Duration.ofSeconds(30)));
        return stores.breaker(store, CONFIG, "pay");
    }

    /** Two failures (below the minimum of 4, so no trip) recorded on a thread of {@code executor}. */
    private static void twoFailuresOn(Executor executor, CircuitBreaker breaker) {
        CompletableFuture.runAsync(
                        () -> {
                            for (int i = 0; i < 2; i++) {
                                long permit = breaker.tryAcquirePermit();
                                breaker.onError(permit, 0L, new IOException("dependency down"));
                            }
                        },
                        executor)
                .join();
    }

    @Test
    void aFailureReportFromAnEventLoopIsSentWithoutWaitingAndLandsWhenTheTableAnswers() throws Exception {
        CircuitBreaker breaker = sharedBreaker();
        DYNALITE.pause(); // the table answers nothing until resumed
        twoFailuresOn(task -> Schedulers.parallel().schedule(task), breaker);

        assertThat(store.getTimeoutCount()).isZero(); // no caller stopped waiting: none waited
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);

        DYNALITE.resume();
        FleetTable item = new FleetTable(store, "pay");
        Dynalite.await(
                () -> item.read().window().failed() + item.read().window().previousFailed()
                        >= 2); // both reports reached the table
    }

    @Test
    void theSameReportsFromAnOrdinaryThreadWaitUpToTheTimeout() throws Exception {
        CircuitBreaker breaker = sharedBreaker();
        DYNALITE.pause();
        ExecutorService plain = Executors.newSingleThreadExecutor();
        try {
            twoFailuresOn(plain, breaker);
        } finally {
            plain.shutdown();
        }
        assertThat(store.getTimeoutCount()).isPositive();
    }
}
