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
    void countsMatchTheRingWhenTheTicketsCrossTheSign() {
        Random random = new Random(20261204L);
        for (int size : new int[] {1, 2, 3, 20, 21, 22, 23, 42, 100, 1_000}) {
            for (int start :
                    new int[] {Integer.MAX_VALUE - 2 * size - 7, Integer.MAX_VALUE - 2 * size - 2, Integer.MAX_VALUE - 3
                    }) {
                for (boolean withCells : new boolean[] {false, true}) {
                    CountWindow window =
                            new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, size, 1, 50f, 50f));
                    window.startTicketsAt(start);
                    if (withCells) {
                        window.startCells(); // successes wait, and a failure writes them in one batch
                    }
                    for (int call = 0; call < 6 * size + 200; call++) {
                        int outcome = random.nextInt(100) < 25 ? OUTCOMES[1 + random.nextInt(3)] : OutcomeBits.CALL;
                        window.record(outcome, 0L);
                        if (outcome != OutcomeBits.CALL || random.nextInt(10) == 0) {
                            String where = "size " + size + ", first ticket " + start + ", cells " + withCells
                                    + ", call " + call;
                            int[] counted = window.counts(0L); // takes what waits in the cells
                            int[] ring = window.slotCounts();
                            assertThat(counted).as(where).containsExactly(ring);
                        }
                    }
                    assertThat(window.ticketsTaken())
                            .as("the tickets crossed the sign")
                            .isNegative();
                }
            }
        }
    }

    @Test
    void aCellsOwnerAndItsOtherThreadsCountApartAndAreEachTakenOnce() {
        CountWindow window = new CountWindow(WindowRules.of(SlidingWindowType.COUNT_BASED, 5, 5, 50f, 100f));
        for (int call = 0; call < 4; call++) {
            window.record(OutcomeBits.CALL, 0L);
        }
        window.record(FAILED, 0L);
        long[] table = window.startCells();
        // Thread ids 16 and 32 fall on one cell whatever the number of cells: 16 claims it first.
        long owner = 16;
        long other = 32;

        window.waitInCell(table, owner);
        window.waitInCell(table, other);
        window.waitInCell(table, owner);
        assertThat(window.ticketsTaken()).as("three successes waiting").isEqualTo(5);
        assertThat(window.counts(0L)).as("a reading takes all three").containsExactly(5, 1, 0);
        assertThat(window.ticketsTaken()).isEqualTo(8);
        assertThat(window.counts(0L)).as("and nothing twice").containsExactly(5, 1, 0);
        assertThat(window.ticketsTaken()).isEqualTo(8);

        window.record(FAILED, 0L); // ticket 8
        for (int call = 1; call <= 4; call++) {
            window.waitInCell(table, owner);
            window.waitInCell(table, other);
        }
        assertThat(window.ticketsTaken()).as("four of each waiting").isEqualTo(9);
        window.waitInCell(table, owner);
        assertThat(window.ticketsTaken())
                .as("the owner's fifth writes its five")
                .isEqualTo(14);
        assertThat(window.slotCounts()).containsExactly(5, 0, 0);
        window.record(FAILED, 0L); // takes the other thread's four first
        assertThat(window.ticketsTaken()).isEqualTo(19);
        assertThat(window.counts(0L)).containsExactly(5, 1, 0);
        for (int call = 1; call <= 5; call++) {
            window.waitInCell(table, other);
        }
        assertThat(window.ticketsTaken())
                .as("the other thread's fifth writes its five")
                .isEqualTo(24);
        assertThat(window.counts(0L)).containsExactly(5, 0, 0);
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
