package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.SlidingWindowType;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The count window's verdict from its two blocks. A block can hold more calls than the window's size:
 * a batch of successes is added whole by one {@code ADD}, whatever the block held before. The window
 * still covers {@code sliding-window-size} calls, so the previous block counts for the part of the
 * window the current block leaves, at its own failure rate, however many calls it holds.
 */
class WindowCountsTest {

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(10)
            .minimumNumberOfCalls(5)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(3))
            .build();

    private static final long NOW = 1_800_000_000_000L;

    @Test
    void afterABlockOfSuccessesFiveFailuresOfTenTripAsInMemory() {
        // epoch, block, current calls/failed/slow, previous calls/failed/slow
        WindowCounts window = new WindowCounts(1, 3, 5, 5, 0, 10, 0, 0);

        assertThat(window.verdict(CONFIG, NOW)).containsExactly("FAILURE_RATE", "10,5,0");
    }

    @Test
    void aPreviousBlockOverfilledByABatchCountsForTheRestOfTheWindowOnly() {
        // 20 successes reached the previous block in one batch; then 5 failures: the last 10 calls are 5 of each.
        WindowCounts window = new WindowCounts(1, 3, 5, 5, 0, 20, 0, 0);

        assertThat(window.verdict(CONFIG, NOW)).containsExactly("FAILURE_RATE", "10,5,0");
    }

    @Test
    void fourFailuresAfterAnOverfilledBlockDoNotTrip() {
        WindowCounts window = new WindowCounts(1, 3, 4, 4, 0, 20, 0, 0);

        assertThat(window.verdict(CONFIG, NOW)).isNull();
    }

    @Test
    void anOverfilledPreviousBlockKeepsItsOwnFailureRate() {
        // The previous block: 20 calls, 10 failed; the current one: 2 successes. Window: 2 + 8 at 50% = 4 of 10.
        WindowCounts window = new WindowCounts(1, 3, 2, 0, 0, 20, 10, 0);

        assertThat(window.verdict(CONFIG, NOW)).isNull();
        // One more failure in the current block: 1 of 3, plus 7 at 50% (3.5, rounded to 4): 5 of 10.
        assertThat(new WindowCounts(1, 3, 3, 1, 0, 20, 10, 0).verdict(CONFIG, NOW))
                .containsExactly("FAILURE_RATE", "10,5,0");
    }

    @Test
    void aCurrentBlockOverfilledByABatchIsTheWholeWindowAtItsOwnRate() {
        // 25 calls reached the current block (a batch of 20 successes, then 5 failures): 1 in 5 failed.
        assertThat(new WindowCounts(1, 3, 25, 5, 0, 10, 0, 0).verdict(CONFIG, NOW))
                .isNull();
        // 20 calls, 10 failed: half.
        assertThat(new WindowCounts(1, 3, 20, 10, 0, 10, 0, 0).verdict(CONFIG, NOW))
                .containsExactly("FAILURE_RATE", "10,5,0");
    }
}
