package io.breaker;

import io.breaker.internal.CallPath;
import io.breaker.internal.Integration;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** What integrations read through {@link Integration}, off the user-facing {@link CircuitBreaker}. */
class IntegrationTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker =
            CircuitBreaker.of("wholesaler", Breakers.smallWindow().build(), clock);

    @Test
    void theBreakerShowsUsersNoIntegrationMethod() {
        assertThat(Arrays.stream(CircuitBreaker.class.getMethods()).map(m -> m.getName()))
                .doesNotContain(
                        "isTimingCalls",
                        "newRejection",
                        "getClock",
                        "permitOrWaitLeft",
                        "onSuccessBetween",
                        "onErrorBetween",
                        "onFailedResultBetween");
    }

    @Test
    void theBreakerInheritsNothingPublicFromItsCallPath() {
        assertThat(CallPath.class.getDeclaredMethods())
                .isNotEmpty()
                .allMatch(method -> Modifier.isProtected(method.getModifiers()), "protected");
        assertThat(CallPath.class.getDeclaredConstructors())
                .allMatch(constructor -> Modifier.isProtected(constructor.getModifiers()), "protected");
    }

    @Test
    void anIntegrationTimesCallsWithTheBreakersClock() {
        assertThat(Integration.clock(breaker)).isSameAs(clock);
        assertThat(Integration.isTimingCalls(breaker)).isFalse();
    }

    @Test
    void aRejectionNamesTheStateAndTheWaitLeft() {
        Breakers.trip(breaker);
        clock.advance(Duration.ofSeconds(4));

        CircuitOpenException rejection = Integration.rejection(breaker, CircuitBreaker.NO_PERMIT);

        assertThat(rejection.getState()).isEqualTo(State.OPEN);
        assertThat(rejection.getRetryAfterNanos())
                .isEqualTo(Breakers.WAIT.minusSeconds(4).toNanos());
    }

    @Test
    void anOutcomeGivenItsReadingsIsFiledUnderItsEndWithoutAnotherReading() {
        FakeClock timeClock = new FakeClock();
        CircuitBreaker timed = CircuitBreaker.of(
                "wholesaler",
                BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.TIME_BASED, 10)
                        .minimumNumberOfCalls(2)
                        .failureRateThreshold(100)
                        .slowCallDurationThreshold(Duration.ofSeconds(1))
                        .slowCallRateThreshold(100)
                        .build(),
                timeClock);
        long start = timeClock.nanoTime();
        long end = start + Duration.ofMillis(9_500).toNanos(); // second 9 of the window; the clock stays at 0
        long readsBefore = timeClock.reads();

        Integration.onSuccess(timed, timed.tryAcquirePermit(), start, end); // 9.5 s: slow
        Integration.onError(
                timed,
                timed.tryAcquirePermit(),
                end - Duration.ofMillis(100).toNanos(),
                end,
                new IOException("down")); // 0.1 s: not slow

        assertThat(timeClock.reads()).as("clock reads while recording").isEqualTo(readsBefore);
        BreakerMetrics recorded = timed.getMetrics();
        assertThat(recorded.calls()).isEqualTo(2);
        assertThat(recorded.slowCalls()).isEqualTo(1);
        assertThat(recorded.failedCalls()).isEqualTo(1);
        // Filed under second 9, both are still in the window 10 s later (filed under the clock's own
        // second 0, they would have left it), and gone 20 s later.
        timeClock.advance(Duration.ofSeconds(10));
        assertThat(timed.getMetrics().calls()).isEqualTo(2);
        timeClock.advance(Duration.ofSeconds(10));
        assertThat(timed.getMetrics().calls()).isZero();
        assertThat(timed.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void anOpenRejectionCarriesTheWaitLeftFromTheReadingThatDecidedIt() {
        long closedPermit = Integration.tryAcquirePermit(breaker);
        assertThat(closedPermit).isPositive();
        breaker.onSuccess(closedPermit, 0L);
        Breakers.trip(breaker);
        clock.advance(Duration.ofSeconds(4));
        long readsBefore = clock.reads();

        long answer = Integration.tryAcquirePermit(breaker);
        CircuitOpenException rejection = Integration.rejection(breaker, answer);

        assertThat(clock.reads() - readsBefore)
                .as("clock reads for the rejection and its exception")
                .isEqualTo(1);
        assertThat(answer).isEqualTo(-Breakers.WAIT.minusSeconds(4).toNanos());
        assertThat(rejection.getState()).isEqualTo(State.OPEN);
        assertThat(rejection.getRetryAfterNanos())
                .isEqualTo(Breakers.WAIT.minusSeconds(4).toNanos());
        assertThat(breaker.getMetrics().notPermittedCalls()).isEqualTo(1);
    }

    @Test
    void otherRejectionsAreNoPermitAndNameTheirState() {
        Breakers.trip(breaker);
        clock.advance(Breakers.WAIT);
        long probe = Integration.tryAcquirePermit(breaker); // the wait is over: the one probe

        long whileProbing = Integration.tryAcquirePermit(breaker);

        assertThat(probe).isPositive();
        assertThat(whileProbing).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(Integration.rejection(breaker, whileProbing).getState()).isEqualTo(State.HALF_OPEN);
        breaker.forceOpen();
        long forced = Integration.tryAcquirePermit(breaker);
        assertThat(forced).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(Integration.rejection(breaker, forced).getState()).isEqualTo(State.FORCED_OPEN);
        assertThat(Integration.rejection(breaker, forced).getRetryAfterNanos()).isEqualTo(-1L);
    }
}
