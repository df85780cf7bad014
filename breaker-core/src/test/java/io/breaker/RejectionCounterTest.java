package io.breaker;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rejection counter gives each thread a slot only it writes, and sends a thread whose slot is
 * taken to a shared adder: with more threads than slots, both paths count, each rejection exactly
 * once, and a sum read while they count never goes back.
 */
class RejectionCounterTest {

    private static final int PER_THREAD = 20_000;

    @Test
    void moreThreadsThanSlotsCountEachRejectionOnce() throws Exception {
        RejectionCounter counter = new RejectionCounter();
        int threads = RejectionCounter.SLOTS * 3 + 1; // thread ids are consecutive: slots are shared
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> readerSaw = new AtomicReference<>();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread caller = new Thread(() -> {
                awaitQuietly(start);
                for (int i = 0; i < PER_THREAD; i++) {
                    counter.increment();
                }
            });
            caller.start();
            callers.add(caller);
        }
        Thread reader = new Thread(() -> {
            awaitQuietly(start);
            long last = 0;
            long total = (long) threads * PER_THREAD;
            while (last < total) {
                long now = counter.sum();
                if (now < last || now > total) {
                    readerSaw.set(new AssertionError("sum went from " + last + " to " + now));
                    return;
                }
                last = now;
            }
        });
        reader.start();
        start.countDown();
        for (Thread caller : callers) {
            caller.join();
        }
        reader.join(10_000);

        assertThat(counter.sum()).isEqualTo((long) threads * PER_THREAD);
        assertThat(readerSaw.get()).isNull();
        assertThat(reader.isAlive()).as("the reader saw the final sum").isFalse();
    }

    @Test
    void oneThreadKeepsItsSlot() {
        RejectionCounter counter = new RejectionCounter();
        for (int i = 0; i < 1_000; i++) {
            counter.increment();
        }
        assertThat(counter.sum()).isEqualTo(1_000);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
