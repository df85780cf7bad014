package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static io.breaker.Breakers.WAIT;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.succeed;
import static io.breaker.Breakers.trip;
import static org.assertj.core.api.Assertions.assertThat;

/** What listeners are told, and that they cannot hurt the breaker. */
class ListenerTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker =
            CircuitBreaker.of("ledger", smallWindow().build(), clock);

    @Test
    void transitionCarriesFromToCauseTimeMetricsAndLastFailure() {
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);
        Instant before = Instant.now().minusMillis(1);

        succeed(breaker, 2);
        trip(breaker);

        assertThat(listener.transitions).hasSize(1);
        Transition trip = listener.transitions.get(0);
        assertThat(trip.breaker()).isEqualTo("ledger");
        assertThat(trip.from()).isEqualTo(State.CLOSED);
        assertThat(trip.to()).isEqualTo(State.OPEN);
        assertThat(trip.cause()).isEqualTo(TransitionCause.FAILURE_RATE);
        assertThat(trip.at()).isAfterOrEqualTo(before).isEqualTo(breaker.getStateSince());
        assertThat(trip.metrics().calls()).isEqualTo(4);
        assertThat(trip.metrics().failedCalls()).isEqualTo(2);
        assertThat(trip.metrics().failureRate()).isEqualTo(50f);
        assertThat(trip.lastFailureType()).isEqualTo(IOException.class.getName());
    }

    @Test
    void rejectionsAndRecordedCallsAreTold() {
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);

        succeed(breaker, 1);
        trip(breaker);
        breaker.tryAcquirePermit();
        breaker.tryAcquirePermit();

        assertThat(listener.outcomes)
                .containsExactly(CallOutcome.SUCCESS, CallOutcome.FAILURE, CallOutcome.FAILURE, CallOutcome.FAILURE);
        assertThat(listener.rejections).hasValue(2);
    }

    @Test
    void slowOutcomesAreToldAsSlow() {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker timed = CircuitBreaker.of(
                "ledger",
                smallWindow()
                        .minimumNumberOfCalls(10)
                        .slowCallDurationThreshold(Duration.ofMillis(100))
                        .build(),
                clock);
        timed.addListener(listener);

        timed.onSuccess(timed.tryAcquirePermit(), Duration.ofMillis(150).toNanos());
        timed.onError(timed.tryAcquirePermit(), Duration.ofMillis(150).toNanos(), new IOException());
        timed.onError(timed.tryAcquirePermit(), Duration.ofMillis(50).toNanos(), new IOException());

        assertThat(listener.outcomes)
                .containsExactly(CallOutcome.SLOW_SUCCESS, CallOutcome.SLOW_FAILURE, CallOutcome.FAILURE);
    }

    @Test
    void throwingListenerDoesNotBreakTheBreakerNorStopOtherListeners() {
        BreakerListener broken = new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onCallRecorded(CircuitBreaker b, CallOutcome outcome, long durationNanos) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onCallRejected(CircuitBreaker b) {
                throw new IllegalStateException("listener bug");
            }
        };
        RecordingListener after = new RecordingListener();
        breaker.addListener(broken);
        breaker.addListener(after);

        assertThat(breaker.execute(() -> "result")).isEqualTo("result");
        trip(breaker);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(WAIT);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onSuccess(permit, 0L);

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(after.transitions)
                .extracting(Transition::to)
                .containsExactly(State.OPEN, State.HALF_OPEN, State.CLOSED);
        assertThat(after.rejections).hasValue(1);
    }

    @Test
    void aTransitionMadeByAListenerIsToldAfterTheOneItHeard() {
        // One thread, no race: the first listener forces the breaker OPEN as soon as it hears the
        // trip. Every listener must hear CLOSED -> OPEN before OPEN -> FORCED_OPEN. (When each
        // winner told its own transition at once, the second listener heard the nested one first:
        // the same disorder breaker-jcstress's ListenerOrderTest found between two threads.)
        breaker.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                if (transition.to() == State.OPEN) {
                    breaker.forceOpen();
                }
            }
        });
        RecordingListener second = new RecordingListener();
        breaker.addListener(second);

        Breakers.fail(breaker, 4); // 4 of 4 failed: trips on the fourth

        assertThat(breaker.getState()).isEqualTo(State.FORCED_OPEN);
        assertThat(second.transitions)
                .extracting(Transition::from, Transition::to)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(State.CLOSED, State.OPEN),
                        org.assertj.core.groups.Tuple.tuple(State.OPEN, State.FORCED_OPEN));
    }

    @Test
    void removedListenerHearsNothingMore() {
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);
        breaker.removeListener(listener);
        breaker.removeListener(listener); // removing twice is harmless

        trip(breaker);
        breaker.tryAcquirePermit();

        assertThat(listener.transitions).isEmpty();
        assertThat(listener.outcomes).isEmpty();
        assertThat(listener.rejections).hasValue(0);
    }

    @Test
    void withoutListenersTheBreakerBuildsNoEventAndReadsNoMetrics() {
        // Building a Transition reads the window's metrics, which reads the clock for a time window.
        // With no listener, a whole trip-probe-close cycle on a count window reads the clock only
        // to decide the trip time, the probe time and the probe lease.
        AtomicInteger reads = new AtomicInteger();
        FakeClock counting = new FakeClock();
        CircuitBreaker quiet = CircuitBreaker.of("quiet", smallWindow().build(), () -> {
            reads.incrementAndGet();
            return counting.nanoTime();
        });
        CircuitBreaker heard = CircuitBreaker.of("heard", smallWindow().build(), counting);
        heard.addListener(new RecordingListener());

        trip(quiet);
        int afterTrip = reads.get();
        counting.advance(WAIT);
        long permit = quiet.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        quiet.onSuccess(permit, 0L);

        assertThat(afterTrip).isEqualTo(1); // the trip time, nothing else
        assertThat(quiet.getState()).isEqualTo(State.CLOSED);
        // The same cycle with a listener works and is reported.
        trip(heard);
        counting.advance(WAIT);
        long permit2 = heard.tryAcquirePermit();
        assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        heard.onSuccess(permit2, 0L);
        assertThat(heard.getState()).isEqualTo(State.CLOSED);
    }
}
