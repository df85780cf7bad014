package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static io.breaker.Breakers.fail;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;

/** CLOSED: counting outcomes, and the trip to OPEN. */
class ClosedStateTest {

    private final FakeClock clock = new FakeClock();

    @Test
    void opensWhenFailureRateReachesThreshold() {
        CircuitBreaker breaker = CircuitBreaker.of("inventory", smallWindow().build(), clock);
        succeed(breaker, 2);
        fail(breaker, 1);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // 1 of 3: below the minimum of 4 anyway

        fail(breaker, 1); // 2 of 4 = 50%

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getMetrics().failureRate()).isEqualTo(50f);
        assertThat(breaker.getLastFailureType()).isEqualTo(IOException.class.getName());
    }

    @Test
    void lastFailureTypeIsTheLatestFailuresWhateverCameBefore() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "inventory", smallWindow().failureRateThreshold(100).build(), clock);
        succeed(breaker, 6); // the 4 failures below make 40%: no trip
        fail(breaker, 1);
        assertThat(breaker.getLastFailureType()).isEqualTo(IOException.class.getName());

        breaker.onError(breaker.acquirePermit(), 0L, new IllegalStateException("pool exhausted"));
        assertThat(breaker.getLastFailureType()).isEqualTo(IllegalStateException.class.getName());

        breaker.onFailedResult(breaker.acquirePermit(), 0L, "org.example.Answer");
        assertThat(breaker.getLastFailureType()).isEqualTo("org.example.Answer");

        fail(breaker, 1);
        assertThat(breaker.getLastFailureType()).isEqualTo(IOException.class.getName());
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // every failure above was recorded
    }

    @Test
    void staysClosedWhileFailureRateIsBelowThreshold() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "inventory", smallWindow().failureRateThreshold(60).build(), clock);
        succeed(breaker, 5);
        fail(breaker, 5); // 5 of 10 = 50% < 60%

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls)
                .containsExactly(10, 5);
    }

    @Test
    void evaluatesNoRateBeforeMinimumNumberOfCalls() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "inventory", smallWindow().minimumNumberOfCalls(5).build(), clock);
        fail(breaker, 4); // 100% failures, but only 4 calls

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(breaker.getMetrics().failureRate()).isEqualTo(-1f);

        fail(breaker, 1);

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void opensWhenSlowCallRateReachesThreshold() {
        BreakerConfig config = smallWindow()
                .slowCallDurationThreshold(Duration.ofMillis(500))
                .slowCallRateThreshold(50)
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("pricing", config, clock);
        breaker.onSuccess(breaker.tryAcquirePermit(), Duration.ofMillis(499).toNanos());
        breaker.onSuccess(breaker.tryAcquirePermit(), Duration.ofMillis(100).toNanos());
        breaker.onSuccess(
                breaker.tryAcquirePermit(), Duration.ofMillis(500).toNanos()); // exactly the threshold counts as slow
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);

        breaker.onSuccess(breaker.tryAcquirePermit(), Duration.ofSeconds(3).toNanos()); // 2 slow of 4

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::slowCalls, BreakerMetrics::failedCalls)
                .containsExactly(2, 0);
    }

    @Test
    void slowCallsMeasuredByExecuteUseTheBreakersClock() {
        BreakerConfig config = smallWindow()
                .minimumNumberOfCalls(1)
                .slowCallDurationThreshold(Duration.ofSeconds(1))
                .slowCallRateThreshold(50)
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("pricing", config, clock);

        breaker.execute(() -> clock.advance(Duration.ofMillis(999)));
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);

        breaker.execute(() -> clock.advance(Duration.ofSeconds(5)));

        assertThat(breaker.getMetrics().slowCalls()).isEqualTo(1);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void tripTellsWhetherFailuresOrSlowCallsCausedIt() {
        BreakerConfig config = smallWindow()
                .minimumNumberOfCalls(2)
                .slowCallDurationThreshold(Duration.ofMillis(10))
                .slowCallRateThreshold(50)
                .build();
        RecordingListener slowListener = new RecordingListener();
        CircuitBreaker slow = CircuitBreaker.of("slow", config, clock);
        slow.addListener(slowListener);
        slow.onSuccess(slow.tryAcquirePermit(), 0L);
        slow.onSuccess(slow.tryAcquirePermit(), Duration.ofMillis(10).toNanos());

        RecordingListener failingListener = new RecordingListener();
        CircuitBreaker failing = CircuitBreaker.of("failing", config, clock);
        failing.addListener(failingListener);
        failing.onSuccess(failing.tryAcquirePermit(), 0L);
        failing.onError(
                failing.tryAcquirePermit(),
                Duration.ofMillis(10).toNanos(),
                new IOException()); // slow AND failed: failure rate wins

        assertThat(slowListener.transitions)
                .extracting(Transition::cause)
                .containsExactly(TransitionCause.SLOW_CALL_RATE);
        assertThat(failingListener.transitions)
                .extracting(Transition::cause)
                .containsExactly(TransitionCause.FAILURE_RATE);
    }

    @Test
    void countWindowForgetsCallsThatSlidOut() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "inventory", smallWindow().failureRateThreshold(50).build(), clock);
        succeed(breaker, 7);
        fail(breaker, 3);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // 30%
        succeed(breaker, 10); // the 3 failures slid out of the last 10 calls

        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls)
                .containsExactly(10, 0);
        fail(breaker, 4); // 4 of the last 10
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        fail(breaker, 1); // 5 of the last 10
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void timeWindowForgetsCallsOlderThanItsSize() {
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, 3)
                .minimumNumberOfCalls(3)
                .failureRateThreshold(50)
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("catalog", config, clock);
        fail(breaker, 2);
        clock.advance(Duration.ofMillis(2_999));
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(2);

        clock.advance(Duration.ofMillis(1)); // three whole seconds later: gone

        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls)
                .containsExactly(0, 0);
        fail(breaker, 1);
        succeed(breaker, 2);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // 1 of 3: the expired failures do not count
        fail(breaker, 1);
        assertThat(breaker.getState()).isEqualTo(State.OPEN); // 2 of 4
    }

    @Test
    void timeWindowKeepsCallsOfEachSecondUntilThatSecondLeavesTheWindow() {
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, 2)
                .minimumNumberOfCalls(100)
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("catalog", config, clock);
        breaker.onSuccess(breaker.tryAcquirePermit(), 0L);
        clock.advance(Duration.ofSeconds(1));
        breaker.onError(breaker.tryAcquirePermit(), 0L, new IOException());
        assertThat(breaker.getMetrics().calls()).isEqualTo(2);

        clock.advance(Duration.ofSeconds(1));
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls)
                .containsExactly(1, 1);

        clock.advance(Duration.ofSeconds(1));
        assertThat(breaker.getMetrics().calls()).isZero();
    }

    @Test
    void timeWindowTripsOnASuccessWhenOlderSuccessesLeftTheWindow() {
        // Found by ReferenceModelTest: a success was assumed to lower the rate, but in a time window
        // the seconds that expire on its way in can raise it.
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.TIME_BASED, 2)
                .minimumNumberOfCalls(1)
                .failureRateThreshold(50)
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("catalog", config, clock);
        succeed(breaker, 3);
        clock.advance(Duration.ofSeconds(1));
        fail(breaker, 1);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // 1 of 4

        clock.advance(Duration.ofSeconds(1));
        succeed(breaker, 1);

        assertThat(breaker.getState())
                .as("1 failure of 2 calls in the last 2 s")
                .isEqualTo(State.OPEN);
    }

    @Test
    void closedCallPathReadsNoClockWhenCountBasedWithoutSlowCallDetection() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "inventory", smallWindow().failureRateThreshold(100).build(), clock);
        long before = clock.reads();

        succeed(breaker, 50);
        for (int i = 0; i < 50; i++) {
            long permit = breaker.tryAcquirePermit();
            assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
            breaker.onSuccess(permit, 0L);
            long permit2 = breaker.tryAcquirePermit();
            assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);
            breaker.onError(permit2, 0L, new IOException());
        }

        assertThat(clock.reads() - before).isZero();
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }
}
