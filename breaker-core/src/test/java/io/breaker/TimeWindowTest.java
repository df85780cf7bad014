package io.breaker;

import io.breaker.spi.OutcomeBits;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The time window's bucket bookkeeping, driven with explicit clock readings. */
class TimeWindowTest {

    private static final long SECOND = 1_000_000_000L;
    private static final int FAILED_CALL = OutcomeBits.CALL | OutcomeBits.FAILED;

    private final TimeWindow window = new TimeWindow(WindowRules.of(SlidingWindowType.TIME_BASED, 5, 1, 50, 100), 0L);

    @Test
    void keepsEachSecondForExactlyTheWindowsLength() {
        for (int second = 0; second < 5; second++) {
            window.record(OutcomeBits.CALL, second * SECOND);
        }
        assertThat(window.counts(4 * SECOND + SECOND - 1)).containsExactly(5, 0, 0);

        assertThat(window.counts(5 * SECOND)).containsExactly(4, 0, 0);
        assertThat(window.counts(9 * SECOND)).containsExactly(0, 0, 0);
    }

    @Test
    void longIdleGapEmptiesEveryBucketOnce() {
        window.record(FAILED_CALL, 0L);
        window.record(FAILED_CALL, 3 * SECOND);

        assertThat(window.counts(1_000 * SECOND)).containsExactly(0, 0, 0);
        window.record(OutcomeBits.CALL, 1_000 * SECOND);
        assertThat(window.counts(1_000 * SECOND)).containsExactly(1, 0, 0);
        assertThat(window.counts(1_004 * SECOND)).containsExactly(1, 0, 0);
        assertThat(window.counts(1_005 * SECOND)).containsExactly(0, 0, 0);
    }

    @Test
    void callRecordedAfterItsSecondLeftTheWindowIsNotCounted() {
        window.record(OutcomeBits.CALL, 10 * SECOND);

        boolean changed = window.record(FAILED_CALL, 5 * SECOND); // a thread that read the clock long ago

        assertThat(changed).isFalse();
        assertThat(window.counts(10 * SECOND)).containsExactly(1, 0, 0);
        assertThat(window.counts(20 * SECOND)).containsExactly(0, 0, 0); // and nothing lingers later
    }

    @Test
    void lateCallWhoseSecondIsStillInTheWindowCountsInItsOwnSecond() {
        window.record(OutcomeBits.CALL, 10 * SECOND);

        window.record(FAILED_CALL, 7 * SECOND);

        assertThat(window.counts(10 * SECOND)).containsExactly(2, 1, 0);
        assertThat(window.counts(12 * SECOND)).containsExactly(1, 0, 0); // second 7 left at 12
    }

    @Test
    void verdictNamesTheRateThatReachedItsThreshold() {
        window.record(OutcomeBits.CALL, 0L);
        assertThat(window.evaluate(0L)).isEqualTo(SlidingWindow.BELOW_THRESHOLDS);
        window.record(FAILED_CALL, 0L);
        assertThat(window.evaluate(0L)).isEqualTo(SlidingWindow.FAILURE_RATE_REACHED);
    }

    @Test
    void aReaderNeverSeesTheFailuresOfASecondThatADrainAlreadyTookTheCallsOf() throws Exception {
        // Each second first holds only failures, then the next second only successes: a pair of
        // totals read across the drain in between would show more failures than calls (a rate above
        // 100%, which evaluate() would turn into a trip).
        TimeWindow oneSecond = new TimeWindow(WindowRules.of(SlidingWindowType.TIME_BASED, 1, 1, 50, 100), 0L);
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<String> broken =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread reader = new Thread(() -> {
            while (!done.get() && broken.get() == null) {
                int[] counts = oneSecond.counts(now.get());
                if (counts[1] > counts[0]) {
                    broken.set(counts[1] + " failed of " + counts[0] + " calls");
                }
            }
        });
        reader.start();
        try {
            for (int second = 0; second < 20_000 && broken.get() == null; second += 2) {
                now.set(second * SECOND);
                for (int i = 0; i < 20; i++) {
                    oneSecond.record(FAILED_CALL, second * SECOND);
                }
                now.set((second + 1) * SECOND);
                for (int i = 0; i < 20; i++) {
                    oneSecond.record(OutcomeBits.CALL, (second + 1) * SECOND);
                }
            }
        } finally {
            done.set(true);
            reader.join();
        }
        assertThat(broken.get()).as("a read straddling a drain").isNull();
    }
}
