package io.breaker;

import io.breaker.spi.SharedVerdict;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A shared breaker that adopts a trip the fleet decided reports the numbers of the fleet's window
 * as it tripped, when the store gives them; otherwise those of its own window.
 */
class SharedTripNumbersTest {

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 20)
            .minimumNumberOfCalls(10)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(5))
            .build();

    /** A breaker the fleet tripped, and the transitions its listener was told. */
    private record Tripped(CircuitBreaker breaker, List<Transition> told) {}

    /** Three successes and a failure on this instance, then the fleet's verdict. */
    private static Tripped trippedBy(SharedVerdict verdict) {
        CircuitBreaker shared = CircuitBreaker.of(
                "shared", CONFIG, new FakeClock(0L), (name, config) -> FakeSharedState.answering(verdict));
        List<Transition> told = new CopyOnWriteArrayList<>();
        shared.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                told.add(transition);
            }
        });
        for (int i = 0; i < 3; i++) {
            shared.onSuccess(shared.tryAcquirePermit(), 0L);
        }
        shared.onError(shared.tryAcquirePermit(), 0L, new IOException("down")); // the fleet trips now
        return new Tripped(shared, told);
    }

    @Test
    void theFleetsCountsWhenTheStoreGivesThem() {
        Tripped tripped = trippedBy(new SharedVerdict(
                State.OPEN, 5_000_000_000L, TransitionCause.FAILURE_RATE, new SharedVerdict.Counts(40, 24, 3)));
        List<Transition> told = tripped.told();

        assertThat(told).hasSize(1);
        Transition trip = told.get(0);
        assertThat(trip.from()).isEqualTo(State.CLOSED);
        assertThat(trip.to()).isEqualTo(State.OPEN);
        BreakerMetrics numbers = trip.metrics();
        assertThat(numbers.calls()).isEqualTo(40);
        assertThat(numbers.failedCalls()).isEqualTo(24);
        assertThat(numbers.slowCalls()).isEqualTo(3);
        assertThat(numbers.failureRate()).isEqualTo(60f);
        assertThat(tripped.breaker().getMetrics().calls()).isEqualTo(40);
        assertThat(tripped.breaker().getMetrics().failureRate()).isEqualTo(60f);
    }

    @Test
    void theFleetsReopenTimeIsNeverTakenForARetryAfter() {
        // The fleet's answer (a trip some time ago, its reopen time a minute off) is longer than this
        // instance's configured 5 s; no failure here carried a Retry-After.
        Tripped tripped = trippedBy(new SharedVerdict(State.OPEN, 60_000_000_000L, TransitionCause.FAILURE_RATE));

        assertThat(tripped.breaker().getRemainingWaitNanos()).isEqualTo(60_000_000_000L);
        assertThat(tripped.breaker().getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
    }

    @Test
    void itsOwnWindowWhenTheStoreDoesNotSay() {
        Tripped tripped = trippedBy(new SharedVerdict(State.OPEN, 5_000_000_000L, TransitionCause.FAILURE_RATE));
        List<Transition> told = tripped.told();

        assertThat(told).hasSize(1);
        BreakerMetrics numbers = told.get(0).metrics();
        assertThat(numbers.calls()).isEqualTo(4);
        assertThat(numbers.failedCalls()).isEqualTo(1);
        assertThat(numbers.failureRate()).isEqualTo(-1f); // 4 calls: below the minimum of 10
        assertThat(tripped.breaker().getMetrics().calls()).isEqualTo(4);
    }

    @Test
    void countsThatCannotBeAreRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new SharedVerdict.Counts(3, 4, 0))
                .withMessageContaining("0 <= failedCalls, slowCalls <= calls");
        assertThatIllegalArgumentException().isThrownBy(() -> new SharedVerdict.Counts(-1, 0, 0));
    }
}
