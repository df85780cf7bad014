package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.breaker.Breakers.WAIT;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.trip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** OPEN: rejecting cheaply, and the move to HALF_OPEN once the wait has elapsed. */
class OpenStateTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker =
            CircuitBreaker.of("wholesaler", smallWindow().build(), clock);

    @Test
    void rejectsWithoutRunningTheProtectedCode() {
        trip(breaker);
        AtomicBoolean ran = new AtomicBoolean();

        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThatThrownBy(() -> breaker.execute(() -> ran.getAndSet(true))).isInstanceOf(CircuitOpenException.class);
        assertThatThrownBy(() -> breaker.run(() -> ran.set(true))).isInstanceOf(CircuitOpenException.class);
        assertThatThrownBy(() -> breaker.call(() -> ran.getAndSet(true))).isInstanceOf(CircuitOpenException.class);

        assertThat(ran).isFalse();
        assertThat(breaker.getMetrics().notPermittedCalls()).isEqualTo(4);
    }

    @Test
    void rejectionNamesTheBreakerAndTheTimeLeftAndHasNoStackTrace() {
        trip(breaker);
        clock.advance(Duration.ofMillis(2_500));

        CircuitOpenException rejection =
                catchThrowableOfType(() -> breaker.execute(() -> "never"), CircuitOpenException.class);

        assertThat(rejection.getBreakerName()).isEqualTo("wholesaler");
        assertThat(rejection.getState()).isEqualTo(State.OPEN);
        assertThat(rejection.getRetryAfterNanos())
                .isEqualTo(Duration.ofMillis(7_500).toNanos());
        assertThat(rejection.getMessage())
                .contains("'wholesaler'")
                .contains("OPEN")
                .contains("7500 ms");
        assertThat(rejection.getStackTrace()).isEmpty();
        rejection.fillInStackTrace();
        assertThat(rejection.getStackTrace()).isEmpty();
    }

    @Test
    void callsRejectedInOneOpenStateShareOneExceptionThatReadsTheWaitWhenAsked() {
        trip(breaker);
        CircuitOpenException first =
                catchThrowableOfType(() -> breaker.execute(() -> "never"), CircuitOpenException.class);
        clock.advance(Duration.ofSeconds(3));
        CircuitOpenException second =
                catchThrowableOfType(() -> breaker.execute(() -> "never"), CircuitOpenException.class);

        assertThat(second).isSameAs(first);
        assertThat(first.getRetryAfterNanos()).isEqualTo(Duration.ofSeconds(7).toNanos());
        assertThat(first.getMessage()).contains("7000 ms");

        // Shared, so nothing a caller does to it reaches the next caller.
        first.addSuppressed(new IOException("caller's"));
        first.setStackTrace(new StackTraceElement[] {new StackTraceElement("Caller", "call", "Caller.java", 1)});
        assertThatThrownBy(() -> first.initCause(new IOException("caller's")))
                .isInstanceOf(IllegalStateException.class);
        assertThat(second.getSuppressed()).isEmpty();
        assertThat(second.getStackTrace()).isEmpty();
        assertThat(second.getCause()).isNull();

        clock.advance(Duration.ofSeconds(60));
        assertThat(first.getRetryAfterNanos()).isZero();
    }

    @Test
    void aNewOpenStateGivesItsOwnException() {
        trip(breaker);
        CircuitOpenException firstTrip =
                catchThrowableOfType(() -> breaker.execute(() -> "never"), CircuitOpenException.class);
        clock.advance(WAIT);
        assertThatThrownBy(() -> breaker.call(() -> {
                    throw new IOException("probe fails");
                }))
                .isInstanceOf(IOException.class);
        clock.advance(Duration.ofSeconds(1));

        CircuitOpenException reopened =
                catchThrowableOfType(() -> breaker.execute(() -> "never"), CircuitOpenException.class);

        assertThat(reopened).isNotSameAs(firstTrip);
        assertThat(reopened.getRetryAfterNanos()).isEqualTo(WAIT.minusSeconds(1).toNanos());
        assertThat(firstTrip.getRetryAfterNanos()).isZero();
    }

    @Test
    void aSerializedRejectionKeepsTheWaitLeftWhenItWasWritten() throws Exception {
        trip(breaker);
        clock.advance(Duration.ofSeconds(2));
        CircuitOpenException rejection =
                catchThrowableOfType(() -> breaker.execute(() -> "never"), CircuitOpenException.class);

        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(rejection);
        }
        clock.advance(Duration.ofSeconds(5));
        CircuitOpenException copy;
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (CircuitOpenException) in.readObject();
        }

        assertThat(copy.getBreakerName()).isEqualTo("wholesaler");
        assertThat(copy.getState()).isEqualTo(State.OPEN);
        assertThat(copy.getRetryAfterNanos()).isEqualTo(Duration.ofSeconds(8).toNanos());
    }

    @Test
    void reportsTheRemainingWaitAndWhenItOpened() {
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(-1L);
        assertThat(breaker.getOpenedAt()).isNull();
        trip(breaker);
        clock.advance(Duration.ofSeconds(4));

        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(6).toNanos());
        assertThat(breaker.getOpenedAt()).isNotNull();
        clock.advance(Duration.ofSeconds(60));
        assertThat(breaker.getRemainingWaitNanos()).isZero();
    }

    @Test
    void staysOpenUntilTheWholeWaitHasElapsed() {
        trip(breaker);
        clock.advance(WAIT.minusNanos(1));

        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);

        clock.advance(Duration.ofNanos(1));

        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void movesToHalfOpenOnlyWhenACallerArrivesAndOnThatCallersThread() {
        RecordingListener listener = new RecordingListener();
        AtomicReference<Thread> decidedOn = new AtomicReference<>();
        breaker.addListener(listener);
        breaker.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                if (transition.to() == State.HALF_OPEN) {
                    decidedOn.set(Thread.currentThread());
                }
            }
        });
        trip(breaker);
        clock.advance(WAIT.multipliedBy(5));

        assertThat(breaker.getState()).isEqualTo(State.OPEN); // nobody asked yet: nothing happened
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        assertThat(decidedOn.get()).isSameAs(Thread.currentThread());
        assertThat(listener.transitions)
                .extracting(Transition::from, Transition::to, Transition::cause)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(State.CLOSED, State.OPEN, TransitionCause.FAILURE_RATE),
                        org.assertj.core.groups.Tuple.tuple(State.OPEN, State.HALF_OPEN, TransitionCause.WAIT_ELAPSED));
    }

    @Test
    void lateFailuresFromCallsAlreadyInFlightDoNotPushTheWaitBack() {
        // Three calls are admitted while CLOSED and are still running when the breaker trips.
        long[] inFlight = new long[3];
        for (int i = 0; i < 3; i++) {
            inFlight[i] = breaker.tryAcquirePermit();
            assertThat(inFlight[i]).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        }
        trip(breaker);
        long remainingAtTrip = breaker.getRemainingWaitNanos();
        clock.advance(Duration.ofSeconds(6));

        for (long permit : inFlight) {
            breaker.onError(permit, 0L, new IOException("late"));
        }

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(remainingAtTrip - Duration.ofSeconds(6).toNanos());
        clock.advance(Duration.ofSeconds(4));
        long permit2 = breaker.tryAcquirePermit();
        assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void lateSuccessesFromCallsAlreadyInFlightDoNotCloseAnOpenBreaker() {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        trip(breaker);

        breaker.onSuccess(permit, 0L);

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
    }
}
