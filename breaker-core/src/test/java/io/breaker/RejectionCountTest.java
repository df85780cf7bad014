package io.breaker;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rejections are counted in stripes (so that concurrent rejections do not all write one word), and
 * the count the metrics report is still exact once the rejecting threads are done.
 */
class RejectionCountTest {

    private static final int THREADS = 4;
    private static final int REJECTIONS_PER_THREAD = 50_000;

    @Test
    void concurrentRejectionsAreEachCountedOnce() throws Exception {
        CircuitBreaker breaker =
                CircuitBreaker.of("wholesaler", Breakers.smallWindow().build(), new FakeClock());
        Breakers.trip(breaker);
        assertThat(breaker.getMetrics().notPermittedCalls()).isZero();

        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Thread caller = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < REJECTIONS_PER_THREAD; i++) {
                    if (thread % 2 == 0) {
                        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
                    } else {
                        try {
                            breaker.acquirePermit();
                            throw new AssertionError("a permit while OPEN");
                        } catch (CircuitOpenException expected) {
                            // counted as a rejection too
                        }
                    }
                }
            });
            caller.start();
            threads.add(caller);
        }
        start.countDown();
        for (Thread caller : threads) {
            caller.join();
        }

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getMetrics().notPermittedCalls()).isEqualTo((long) THREADS * REJECTIONS_PER_THREAD);
    }
}
