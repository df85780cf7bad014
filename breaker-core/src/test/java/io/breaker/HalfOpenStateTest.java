package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import static io.breaker.Breakers.WAIT;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.trip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** HALF_OPEN: the probes, and the way back to CLOSED or OPEN. */
class HalfOpenStateTest {

    private static final Duration LEASE = Duration.ofSeconds(20);

    private final FakeClock clock = new FakeClock();

    private CircuitBreaker halfOpen(BreakerConfig config) {
        CircuitBreaker breaker = CircuitBreaker.of("shipping", config, clock);
        trip(breaker);
        clock.advance(WAIT);
        return breaker;
    }

    @Test
    void admitsOneProbeByDefaultAndRejectsEveryoneElseAtOnce() {
        assertThat(BreakerConfig.ofDefaults().getPermittedCallsInHalfOpenState())
                .isEqualTo(1);
        CircuitBreaker breaker = halfOpen(smallWindow().build());

        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        for (int i = 0; i < 10; i++) {
            assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        }

        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        CircuitOpenException rejection =
                catchThrowableOfType(() -> breaker.execute(() -> "x"), CircuitOpenException.class);
        assertThat(rejection.getState()).isEqualTo(State.HALF_OPEN);
        assertThat(rejection.getMessage()).contains("'shipping'").contains("probe");
    }

    @Test
    void admitsExactlyThePermittedNumberOfProbes() {
        CircuitBreaker breaker =
                halfOpen(smallWindow().permittedCallsInHalfOpenState(3).build());

        int admitted = 0;
        for (int i = 0; i < 20; i++) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                admitted++;
            }
        }

        assertThat(admitted).isEqualTo(3);
    }

    @Test
    void failedProbeReopensAndRestartsTheWaitFromThatMoment() {
        CircuitBreaker breaker = halfOpen(smallWindow().build());
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(Duration.ofSeconds(3)); // the probe takes 3 s to fail

        breaker.onError(permit, 0L, new IOException("still down"));

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(WAIT.toNanos());
        clock.advance(WAIT.minusNanos(1));
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(Duration.ofNanos(1));
        long permit2 = breaker.tryAcquirePermit();
        assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void failedProbeIsReportedAsProbeFailed() {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker breaker = halfOpen(smallWindow().build());
        breaker.addListener(listener);

        assertThatThrownBy(() -> breaker.execute(() -> {
                    throw new UncheckedIOException(new IOException("down"));
                }))
                .isInstanceOf(UncheckedIOException.class);

        assertThat(listener.transitions)
                .extracting(Transition::from, Transition::to, Transition::cause)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(State.OPEN, State.HALF_OPEN, TransitionCause.WAIT_ELAPSED),
                        org.assertj.core.groups.Tuple.tuple(State.HALF_OPEN, State.OPEN, TransitionCause.PROBE_FAILED));
    }

    @Test
    void slowProbeCountsAsFailedProbe() {
        BreakerConfig config =
                smallWindow().slowCallDurationThreshold(Duration.ofSeconds(1)).build();
        CircuitBreaker breaker = halfOpen(config);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        breaker.onSuccess(permit, Duration.ofSeconds(2).toNanos());

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void enoughSuccessfulProbesCloseTheBreakerWithAFreshWindow() {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker breaker =
                halfOpen(smallWindow().permittedCallsInHalfOpenState(2).build());
        breaker.addListener(listener);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        long permit2 = breaker.tryAcquirePermit();
        assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        breaker.onSuccess(permit2, 0L);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN); // one of two
        breaker.onSuccess(permit, 0L);

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(listener.transitions)
                .last()
                .extracting(Transition::cause)
                .isEqualTo(TransitionCause.PROBES_SUCCEEDED);
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls)
                .containsExactly(0, 0);
        // The failures that tripped it are gone: it takes a whole new minimum of calls to trip again.
        Breakers.fail(breaker, 3);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        Breakers.fail(breaker, 1);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void leaseFreesThePermitOfAProbeThatNeverReported() {
        CircuitBreaker breaker = halfOpen(smallWindow().probeLease(LEASE).build());
        long permit = breaker.tryAcquirePermit(); // this probe's thread dies: no report ever
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        clock.advance(LEASE.minusNanos(1));
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(Duration.ofNanos(1));
        long permit2 = breaker.tryAcquirePermit(); // takes the lost probe's permit over
        assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT); // ... and only that one

        breaker.onSuccess(permit2, 0L);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void takenOverPermitGetsAFreshLease() {
        CircuitBreaker breaker = halfOpen(smallWindow().probeLease(LEASE).build());
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(LEASE);
        long permit2 = breaker.tryAcquirePermit();
        assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        clock.advance(LEASE.minusNanos(1));

        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void ignoredExceptionGivesThePermitBackAndCountsNeitherWay() {
        BreakerConfig config =
                smallWindow().ignoreExceptions(IllegalArgumentException.class).build();
        CircuitBreaker breaker = halfOpen(config);

        assertThatThrownBy(() -> breaker.execute(() -> {
                    throw new IllegalArgumentException("bad request: our fault");
                }))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        long permit = breaker.tryAcquirePermit(); // the permit is free again
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onSuccess(permit, 0L);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void releasedPermissionGoesToTheNextCaller() {
        CircuitBreaker breaker = halfOpen(smallWindow().build());
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);

        breaker.releasePermit(permit); // the probe was cancelled before it ran

        long permit2 = breaker.tryAcquirePermit();
        assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void errorThrownByAProbeDoesNotLeakItsPermit() {
        // Counted as a failure (the default): the probe failed, the breaker reopens.
        CircuitBreaker counted = halfOpen(smallWindow().build());
        assertThatThrownBy(() -> counted.run(() -> {
                    throw new StackOverflowError();
                }))
                .isInstanceOf(StackOverflowError.class);
        assertThat(counted.getState()).isEqualTo(State.OPEN);

        // Not among the recorded exceptions: ignored, and the permit comes back.
        CircuitBreaker ignored =
                halfOpen(smallWindow().recordExceptions(IOException.class).build());
        assertThatThrownBy(() -> ignored.run(() -> {
                    throw new AssertionError("bug in our own code");
                }))
                .isInstanceOf(AssertionError.class);
        assertThat(ignored.getState()).isEqualTo(State.HALF_OPEN);
        long permit = ignored.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void probeOutcomesAreToldToListeners() {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker breaker =
                halfOpen(smallWindow().permittedCallsInHalfOpenState(2).build());
        breaker.addListener(listener);

        breaker.execute(() -> "ok");
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);

        assertThat(listener.outcomes).containsExactly(CallOutcome.SUCCESS);
        assertThat(listener.rejections).hasValue(1);
    }
}
