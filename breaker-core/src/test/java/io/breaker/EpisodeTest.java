package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static io.breaker.Breakers.WAIT;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.trip;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An outcome counts only in the episode that admitted its call: a call admitted in CLOSED that ends
 * after the trip (slow client, retries inside the method) must not decide the probe, give back a
 * probe permit it never held, or land in the next CLOSED window.
 */
class EpisodeTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker = CircuitBreaker.of(
            "slow-client",
            smallWindow().ignoreExceptions(IllegalArgumentException.class).build(),
            clock);

    @Test
    void everyEpisodeStaysAboveZeroAfterTwoBillionTransitions() {
        // Before, the bits were the count shifted by 32: from the 2^31-th transition on they reached
        // the sign bit, and a permit would read as a rejection (Integration.tryAcquirePermit answers
        // an OPEN rejection below zero); at 2^32 one was NO_PERMIT itself.
        for (long taken :
                new long[] {0L, 1L, Integer.MAX_VALUE - 1L, Integer.MAX_VALUE, 1L << 31, 1L << 32, Long.MAX_VALUE}) {
            long episode = Phase.episode(taken);
            assertThat(episode).as("episode of number %d", taken).isPositive();
            assertThat(episode | 0xFFFF_FFFFL).as("with any probe generation").isPositive();
        }
        assertThat(Phase.episode(Integer.MAX_VALUE))
                .as("numbers start again at 1")
                .isEqualTo(Phase.episode(0L));
    }

    @Test
    void aStaleSuccessDoesNotCloseTheBreakerWhileTheProbeRuns() {
        long stale = breaker.tryAcquirePermit(); // admitted in CLOSED, still running
        trip(breaker);
        clock.advance(WAIT);
        long probe = breaker.tryAcquirePermit();
        assertThat(probe).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        breaker.onSuccess(stale, Duration.ofSeconds(11).toNanos());

        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        breaker.onError(probe, 0L, new IOException("still down"));
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getMetrics().calls())
                .as("the probe's failure is not in a fresh CLOSED window")
                .isEqualTo(4);
    }

    @Test
    void aStaleFailureDoesNotReopenTheBreakerWhileTheProbeRuns() {
        long stale = breaker.tryAcquirePermit();
        trip(breaker);
        clock.advance(WAIT);
        long probe = breaker.tryAcquirePermit();

        breaker.onError(stale, Duration.ofSeconds(11).toNanos(), new IOException("timed out long ago"));

        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        breaker.onSuccess(probe, 0L);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void aStaleCallThatIsCancelledOrIgnoredGivesBackNoProbePermit() {
        long cancelled = breaker.tryAcquirePermit();
        long ignored = breaker.tryAcquirePermit();
        trip(breaker);
        clock.advance(WAIT);
        assertThat(breaker.tryAcquirePermit()).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        breaker.releasePermit(cancelled);
        assertThat(breaker.onError(ignored, 0L, new IllegalArgumentException("our own bug")))
                .isFalse();

        assertThat(breaker.tryAcquirePermit()).as("a second probe").isEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void aCallFromAnEarlierClosedEpisodeDoesNotLandInTheNextWindow() {
        long stale = breaker.tryAcquirePermit();
        trip(breaker);
        clock.advance(WAIT);
        breaker.onSuccess(breaker.tryAcquirePermit(), 0L);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);

        breaker.onError(stale, Duration.ofSeconds(30).toNanos(), new IOException("timed out long ago"));

        assertThat(breaker.getMetrics().calls()).isZero();
    }

    @Test
    void aCallAdmittedWhileForcedClosedDoesNotCountAfterRelease() {
        breaker.forceClosed();
        long admitted = breaker.tryAcquirePermit();
        breaker.release();

        breaker.onError(admitted, 0L, new IOException("down"));

        assertThat(breaker.getMetrics().calls()).isZero();
    }

    @Test
    void aProbeWhoseLeaseWasTakenOverNoLongerDecides() {
        CircuitBreaker leased = CircuitBreaker.of(
                "leased", smallWindow().probeLease(Duration.ofSeconds(20)).build(), clock);
        trip(leased);
        clock.advance(WAIT);
        long lost = leased.tryAcquirePermit();
        clock.advance(Duration.ofSeconds(20));
        long successor = leased.tryAcquirePermit(); // takes the silent probe's permit over
        assertThat(successor).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        leased.onSuccess(lost, 0L);
        assertThat(leased.getState()).isEqualTo(State.HALF_OPEN);
        leased.releasePermit(lost);
        assertThat(leased.tryAcquirePermit())
                .as("the lost probe's cancel frees nothing")
                .isEqualTo(CircuitBreaker.NO_PERMIT);

        leased.onSuccess(successor, 0L);
        assertThat(leased.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void eachEpisodeHandsOutItsOwnPermits() {
        long closed = breaker.tryAcquirePermit();
        assertThat(breaker.tryAcquirePermit())
                .as("the same episode, the same permit")
                .isEqualTo(closed);
        trip(breaker);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(WAIT);
        assertThat(breaker.tryAcquirePermit()).isNotIn(CircuitBreaker.NO_PERMIT, closed);
    }
}
