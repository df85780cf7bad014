package io.breaker;

import io.breaker.spi.OutcomeBits;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The count window against a plain list of the last N outcomes, one thread at a time, with and
 * without cells; and its counts against its ring after records on several threads.
 */
class CountWindowTest {

    private static final int FAILED = OutcomeBits.CALL | OutcomeBits.FAILED;
    private static final int SLOW = OutcomeBits.CALL | OutcomeBits.SLOW;
    private static final int FAILED_AND_SLOW = FAILED | OutcomeBits.SLOW;
    private static final int[] OUTCOMES = {OutcomeBits.CALL, FAILED, SLOW, FAILED_AND_SLOW};

    @Test
    void countsTheLastNOutcomesExactlyWhateverTheirMix() {
        Random random = new Random(20261202L);
        for (int size : new int[] {1, 2, 3, 20, 21, 22, 42, 100, 1_000}) {
            for (int failurePercent : new int[] {0, 1, 5, 50, 100}) {
                CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, size, 1, 50f, 50f));
                ArrayDeque<Integer> last = new ArrayDeque<>();
                for (int call = 0; call < 5 * size + 50; call++) {
                    int outcome =
                            random.nextInt(100) < failurePercent ? OUTCOMES[1 + random.nextInt(3)] : OutcomeBits.CALL;
                    Integer leaving = last.size() == size ? last.removeFirst() : null;
                    last.addLast(outcome);

                    boolean changed = window.record(outcome, 0L);

                    String where = "size " + size + ", " + failurePercent + "% failing, call " + call;
                    assertThat(changed).as(where).isEqualTo(leaving == null || leaving != outcome);
                    assertThat(window.counts(0L)).as(where).containsExactly(expected(last));
                    assertThat(window.slotCounts())
                            .as(where + ", the ring's slots")
                            .containsExactly(expected(last));
                }
            }
        }
    }

    @Test
    void aSuccessOnAFullWindowOfSuccessesWritesNothing() {
        CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, 5, 5, 50f, 100f));
        for (int call = 0; call < 5; call++) {
            window.record(OutcomeBits.CALL, 0L);
        }
        assertThat(window.ticketsTaken()).isEqualTo(5);

        for (int call = 0; call < 1_000; call++) {
            assertThat(window.record(OutcomeBits.CALL, 0L)).isFalse();
        }
        assertThat(window.ticketsTaken()).isEqualTo(5);
        assertThat(window.counts(0L)).containsExactly(5, 0, 0);
    }

    @Test
    void aFailureInTheWindowMakesSuccessesTakeTheirPlaceUntilItLeaves() {
        CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, 5, 5, 50f, 100f));
        for (int call = 0; call < 5; call++) {
            window.record(OutcomeBits.CALL, 0L);
        }
        assertThat(window.record(FAILED, 0L)).isTrue();
        assertThat(window.counts(0L)).containsExactly(5, 1, 0);

        for (int call = 1; call <= 4; call++) {
            window.record(OutcomeBits.CALL, 0L);
            assertThat(window.counts(0L)).as("after %d successes", call).containsExactly(5, 1, 0);
        }
        assertThat(window.record(OutcomeBits.CALL, 0L)).as("the failure leaves").isTrue();
        assertThat(window.counts(0L)).containsExactly(5, 0, 0);
        assertThat(window.ticketsTaken()).isEqualTo(11);

        window.record(OutcomeBits.CALL, 0L);
        assertThat(window.ticketsTaken()).as("clean again: no ticket").isEqualTo(11);
    }

    @Test
    void aWindowNotYetFullTakesATicketForEverySuccess() {
        CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, 100, 10, 50f, 100f));
        for (int call = 1; call <= 99; call++) {
            assertThat(window.record(OutcomeBits.CALL, 0L)).isTrue();
            assertThat(window.ticketsTaken()).isEqualTo(call);
        }
        assertThat(window.counts(0L)).containsExactly(99, 0, 0);
    }

    @Test
    void successesWaitingInCellsKeepTheWindowExactAtEveryVerdictAndReading() {
        Random random = new Random(20261203L);
        for (int size : new int[] {1, 2, 3, 20, 21, 22, 100, 1_000}) {
            for (int failurePercent : new int[] {1, 5, 50, 100}) {
                CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, size, 1, 50f, 50f));
                window.startCells();
                ArrayDeque<Integer> last = new ArrayDeque<>();
                for (int call = 0; call < 7 * size + 50; call++) {
                    int outcome =
                            random.nextInt(100) < failurePercent ? OUTCOMES[1 + random.nextInt(3)] : OutcomeBits.CALL;
                    boolean full = last.size() == size;
                    Integer leaving = full ? last.removeFirst() : null;
                    last.addLast(outcome);

                    boolean changed = window.record(outcome, 0L);

                    String where = "size " + size + ", " + failurePercent + "% failing, call " + call;
                    if (outcome != OutcomeBits.CALL) {
                        assertThat(changed).as(where).isEqualTo(leaving == null || leaving != outcome);
                        assertThat(window.slotCounts())
                                .as(where + ": the ring before a verdict")
                                .containsExactly(expected(last));
                    } else if (full && !last.stream().allMatch(o -> o == OutcomeBits.CALL)) {
                        assertThat(changed)
                                .as(where + ": a success that waits asks for no verdict")
                                .isFalse();
                    }
                    if (random.nextInt(10) == 0) {
                        assertThat(window.counts(0L)).as(where + ": a reading").containsExactly(expected(last));
                        assertThat(window.slotCounts())
                                .as(where + ", the ring's slots")
                                .containsExactly(expected(last));
                    }
                }
                assertThat(window.counts(0L)).containsExactly(expected(last));
            }
        }
    }

    @Test
    void aCellHoldingAWholeWindowOfSuccessesEmptiesItselfIntoTheRing() {
        CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, 5, 5, 50f, 100f));
        for (int call = 0; call < 4; call++) {
            window.record(OutcomeBits.CALL, 0L);
        }
        window.record(FAILED, 0L);
        window.startCells();

        for (int call = 1; call <= 4; call++) {
            assertThat(window.record(OutcomeBits.CALL, 0L)).isFalse();
            assertThat(window.slotCounts()).as("%d successes waiting", call).containsExactly(5, 1, 0);
        }
        assertThat(window.ticketsTaken()).isEqualTo(5);
        window.record(OutcomeBits.CALL, 0L);
        assertThat(window.slotCounts()).as("the fifth empties the cell").containsExactly(5, 0, 0);
        assertThat(window.ticketsTaken()).isEqualTo(10);

        window.record(OutcomeBits.CALL, 0L);
        assertThat(window.ticketsTaken()).as("clean again: no ticket, no cell").isEqualTo(10);
        assertThat(window.counts(0L)).containsExactly(5, 0, 0);
        assertThat(window.ticketsTaken()).as("nothing was waiting").isEqualTo(10);
    }

    @Test
    void recordsOnManyThreadsLeaveCountsThatMatchTheRing() throws Exception {
        CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, 100, 1, 100f, 100f));
        for (int call = 0; call < 100; call++) {
            window.record(call % 50 == 0 ? FAILED : OutcomeBits.CALL, 0L);
        }
        int threads = 4;
        int each = 200_000;
        CountDownLatch start = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int seed = t;
            workers[t] = new Thread(() -> {
                Random random = new Random(seed);
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int call = 0; call < each; call++) {
                    window.record(random.nextInt(50) == 0 ? FAILED : OutcomeBits.CALL, 0L);
                }
            });
            workers[t].start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        window.record(FAILED, 0L);
        int[] ring = window.slotCounts();
        assertThat(window.counts(0L)).containsExactly(ring);
        assertThat(ring[0]).isEqualTo(100);
        assertThat(ring[1]).as("the last call failed").isBetween(1, 100);
    }

    private static int[] expected(ArrayDeque<Integer> last) {
        int failed = 0;
        int slow = 0;
        for (int outcome : last) {
            failed += (outcome & OutcomeBits.FAILED) != 0 ? 1 : 0;
            slow += (outcome & OutcomeBits.SLOW) != 0 ? 1 : 0;
        }
        return new int[] {last.size(), failed, slow};
    }
}
