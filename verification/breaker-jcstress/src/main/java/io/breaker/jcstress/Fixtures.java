package io.breaker.jcstress;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;

import java.time.Duration;

/** What the tests share: one small configuration, a start time, and the errors calls end with. */
final class Fixtures {

    /** An arbitrary start: the clock is never read as a wall time. */
    static final long T0 = 1_000_000_000_000L;

    static final long SECOND = 1_000_000_000L;
    static final long WAIT = 10 * SECOND;
    static final long LEASE = 5 * SECOND;

    /** Counts as a failure (a dependency that does not answer). No stack trace: it is thrown millions of times. */
    static final RuntimeException DOWN = new DependencyDown();
    /** Configured as ignored (an answer, not an outage): counts neither way, gives a probe permit back. */
    static final RuntimeException NOT_FOUND = new NotFound();

    private Fixtures() {}

    /**
     * Window of the last 10 calls, at least 2 of them, 50% failures trip; 10 s OPEN; a 5 s probe
     * lease; NotFound ignored.
     */
    static BreakerConfig.Builder config() {
        return BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
                .minimumNumberOfCalls(2)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofNanos(WAIT))
                .probeLease(Duration.ofNanos(LEASE))
                .permittedCallsInHalfOpenState(1)
                .ignoreExceptions(NotFound.class);
    }

    /** Two failed calls: the breaker trips at the clock's current time. */
    static void trip(CircuitBreaker breaker) {
        long first = breaker.tryAcquirePermit();
        long second = breaker.tryAcquirePermit();
        breaker.onError(first, 0L, DOWN);
        breaker.onError(second, 0L, DOWN);
        expect(breaker, State.OPEN);
    }

    /** A precondition of the test: if it does not hold, the setup (not the engine) is wrong. */
    static void expect(CircuitBreaker breaker, State state) {
        if (breaker.getState() != state) {
            throw new IllegalStateException("setup expected " + state + ", found " + breaker.getState());
        }
    }

    static int granted(long permit) {
        return permit == CircuitBreaker.NO_PERMIT ? 0 : 1;
    }

    static final class DependencyDown extends RuntimeException {
        DependencyDown() {
            super("dependency down", null, false, false);
        }
    }

    static final class NotFound extends RuntimeException {
        NotFound() {
            super("not found", null, false, false);
        }
    }
}
