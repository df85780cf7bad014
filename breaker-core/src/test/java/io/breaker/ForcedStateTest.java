package io.breaker;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static io.breaker.Breakers.WAIT;
import static io.breaker.Breakers.fail;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.succeed;
import static io.breaker.Breakers.trip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The operator states, and the release back to automatic operation. */
class ForcedStateTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker =
            CircuitBreaker.of("payments", smallWindow().build(), clock);

    @Test
    void forcedOpenRejectsEverythingForeverUntilReleased() {
        assertThat(breaker.forceOpen()).isTrue();
        AtomicInteger ran = new AtomicInteger();

        clock.advance(WAIT.multipliedBy(1_000)); // no wait ever ends a forced state
        for (int i = 0; i < 5; i++) {
            assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        }
        CircuitOpenException rejection =
                catchThrowableOfType(() -> breaker.run(ran::incrementAndGet), CircuitOpenException.class);

        assertThat(ran).hasValue(0);
        assertThat(breaker.getState()).isEqualTo(State.FORCED_OPEN);
        assertThat(rejection.getState()).isEqualTo(State.FORCED_OPEN);
        assertThat(rejection.getRetryAfterNanos()).isEqualTo(-1L);
        assertThat(rejection.getMessage()).contains("'payments'").contains("until an operator releases it");
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(-1L);
    }

    @Test
    void forcedClosedLetsEverythingThroughAndKeepsRecordingButNeverTrips() {
        assertThat(breaker.forceClosed()).isTrue();

        fail(breaker, 50);

        assertThat(breaker.getState()).isEqualTo(State.FORCED_CLOSED);
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls)
                .containsExactly(10, 10);
        assertThat(breaker.getMetrics().failureRate()).isEqualTo(100f);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void forcingAnOpenBreakerClosedLetsCallsThroughAtOnce() {
        trip(breaker);

        breaker.forceClosed();

        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getMetrics().calls()).isZero();
    }

    @Test
    void releaseReturnsToClosedWithAFreshWindowFromEveryState() {
        for (State from : new State[] {State.OPEN, State.HALF_OPEN, State.FORCED_OPEN, State.FORCED_CLOSED}) {
            CircuitBreaker b =
                    CircuitBreaker.of("payments-" + from, smallWindow().build(), clock);
            succeed(b, 1);
            fail(b, 3);
            switch (from) {
                case OPEN -> fail(b, 1);
                case HALF_OPEN -> {
                    fail(b, 1);
                    clock.advance(WAIT);
                    long permit = b.tryAcquirePermit();
                    assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
                }
                case FORCED_OPEN -> b.forceOpen();
                default -> b.forceClosed();
            }
            assertThat(b.getState()).isEqualTo(from);

            assertThat(b.release()).isTrue();

            assertThat(b.getState()).as("released from %s", from).isEqualTo(State.CLOSED);
            assertThat(b.getMetrics().calls())
                    .as("window after release from %s", from)
                    .isZero();
            fail(b, 3);
            assertThat(b.getState())
                    .as("a fresh window needs its minimum again (%s)", from)
                    .isEqualTo(State.CLOSED);
            fail(b, 1);
            assertThat(b.getState()).isEqualTo(State.OPEN);
        }
    }

    @Test
    void operatorChangesAreReportedOnceAndOnlyWhenTheStateChanges() {
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);
        succeed(breaker, 2);

        assertThat(breaker.release()).isFalse(); // already CLOSED: left as it is, window kept
        assertThat(breaker.getMetrics().calls()).isEqualTo(2);
        assertThat(breaker.forceOpen()).isTrue();
        assertThat(breaker.forceOpen()).isFalse();
        assertThat(breaker.forceClosed()).isTrue();
        assertThat(breaker.release()).isTrue();

        assertThat(listener.transitions)
                .extracting(Transition::to)
                .containsExactly(State.FORCED_OPEN, State.FORCED_CLOSED, State.CLOSED);
        assertThat(listener.transitions).extracting(Transition::cause).containsOnly(TransitionCause.OPERATOR);
    }

    @Test
    void callsAdmittedBeforeForcingOpenReportWithoutEffect() {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        long another = breaker.tryAcquirePermit();
        breaker.forceOpen();

        breaker.onSuccess(permit, 0L);
        breaker.releasePermit(another);

        assertThat(breaker.getState()).isEqualTo(State.FORCED_OPEN);
        assertThatThrownBy(() -> breaker.execute(() -> 1)).isInstanceOf(CircuitOpenException.class);
    }
}
