package io.breaker.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The time window's bucket bookkeeping, driven with explicit clock readings. */
class TimeWindowTest {

    private static final long SECOND = 1_000_000_000L;
    private static final int FAILED_CALL = SlidingWindow.CALL | SlidingWindow.FAILED;

    private final TimeWindow window = new TimeWindow(5, 1, 50, 100, 0L);

    @Test
    void keepsEachSecondForExactlyTheWindowsLength() {
        for (int second = 0; second < 5; second++) {
            window.record(SlidingWindow.CALL, second * SECOND);
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
        window.record(SlidingWindow.CALL, 1_000 * SECOND);
        assertThat(window.counts(1_000 * SECOND)).containsExactly(1, 0, 0);
        assertThat(window.counts(1_004 * SECOND)).containsExactly(1, 0, 0);
        assertThat(window.counts(1_005 * SECOND)).containsExactly(0, 0, 0);
    }

    @Test
    void callRecordedAfterItsSecondLeftTheWindowIsNotCounted() {
        window.record(SlidingWindow.CALL, 10 * SECOND);

        boolean changed = window.record(FAILED_CALL, 5 * SECOND); // a thread that read the clock long ago

        assertThat(changed).isFalse();
        assertThat(window.counts(10 * SECOND)).containsExactly(1, 0, 0);
        assertThat(window.counts(20 * SECOND)).containsExactly(0, 0, 0); // and nothing lingers later
    }

    @Test
    void lateCallWhoseSecondIsStillInTheWindowCountsInItsOwnSecond() {
        window.record(SlidingWindow.CALL, 10 * SECOND);

        window.record(FAILED_CALL, 7 * SECOND);

        assertThat(window.counts(10 * SECOND)).containsExactly(2, 1, 0);
        assertThat(window.counts(12 * SECOND)).containsExactly(1, 0, 0); // second 7 left at 12
    }

    @Test
    void verdictNamesTheRateThatReachedItsThreshold() {
        window.record(SlidingWindow.CALL, 0L);
        assertThat(window.evaluate(0L)).isEqualTo(SlidingWindow.BELOW_THRESHOLDS);
        window.record(FAILED_CALL, 0L);
        assertThat(window.evaluate(0L)).isEqualTo(SlidingWindow.FAILURE_RATE_REACHED);
    }
}
