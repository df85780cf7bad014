package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.State;
import io.breaker.spi.SharedState;
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
        return sharedBreaker(Duration.ofSeconds(2), Duration.ofMillis(200));
    }

    private CircuitBreaker sharedBreaker(Duration stateCacheTtl, Duration timeout) throws InterruptedException {
        store = stores.store(
                stores.settings(stateCacheTtl, timeout, StoreFailureMode.PROTECT_LOCALLY, Duration.ofSeconds(30)));
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

    /**
     * The table answers an event-loop caller's report only after the store timeout: the caller did not
     * wait, the answer is adopted when it comes (here the trip another instance made meanwhile), the
     * store counts it as one operation not answered in time, and the answer itself ends that failure.
     */
    @Test
    void aLateAnswerToAnEventLoopCallerIsAdoptedAndCountedAsOneFailure() throws Exception {
        Duration timeout = Duration.ofMillis(500);
        // The cache outlives the test: no refresh runs, the report is the breaker's only operation.
        CircuitBreaker breaker = sharedBreaker(Duration.ofSeconds(60), timeout);
        SharedState other = DynamoStores.warmLink(stores.store(stores.patient()), "pay", CONFIG, NanoClock.system());
        for (int i = 0; i < CONFIG.getMinimumNumberOfCalls(); i++) {
            other.recordFailure(CallOutcome.FAILURE);
        }
        assertThat(stores.item("pay").get("state").s()).isEqualTo("OPEN"); // the fleet tripped...
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // ...and this instance does not know it yet
        long failures = store.getFailureCount();

        DYNALITE.pause();
        long callNanos = CompletableFuture.supplyAsync(
                        () -> {
                            long start = System.nanoTime();
                            long permit = breaker.tryAcquirePermit();
                            breaker.onError(permit, 0L, new IOException("dependency down"));
                            return System.nanoTime() - start;
                        },
                        task -> Schedulers.parallel().schedule(task))
                .join();
        assertThat(Duration.ofNanos(callNanos)).isLessThan(timeout); // the caller returned at once
        assertThat(store.getTimeoutCount()).isZero();
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // 1 failure, below the minimum of 4
        Thread.sleep(3 * timeout.toMillis()); // the report goes unanswered for longer than the timeout
        assertThat(store.getFailureCount()).isEqualTo(failures); // nothing is known of it before an answer
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);

        DYNALITE.resume();
        Dynalite.await(() -> breaker.getState() == State.OPEN); // the table's answer: the fleet's trip
        assertThat(store.getFailureCount()).isEqualTo(failures + 1); // answered, but after the timeout
        assertThat(store.getTimeoutCount()).isZero(); // no caller waited for it
        assertThat(store.getOutageCount()).isZero();
        assertThat(store.isAvailable()).isTrue();
        assertThat(store.isSilent()).isFalse(); // the answer ended the failure it counted
    }
}
