package io.breaker;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

import static io.breaker.Breakers.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/** Transition times come from the wall clock a registry is given, not from the system's. */
class WallClockTest {

    private static final Instant START = Instant.parse("2031-05-04T10:00:00Z");

    private final FakeClock clock = new FakeClock();
    private final MovableClock wall = new MovableClock(START);
    private final BreakerRegistry registry =
            BreakerRegistry.of(Breakers.smallWindow().build(), Map.of(), clock, wall, null);

    @Test
    void creationTripProbeAndCloseAreDatedByTheWallClock() {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker breaker = registry.breaker("wholesaler");
        breaker.addListener(listener);
        assertThat(breaker.getStateSince()).isEqualTo(START);

        wall.moveTo(START.plusSeconds(60));
        Breakers.trip(breaker);
        assertThat(breaker.getStateSince()).isEqualTo(START.plusSeconds(60));
        assertThat(breaker.getOpenedAt()).isEqualTo(START.plusSeconds(60));

        wall.moveTo(START.plusSeconds(75));
        clock.advance(WAIT);
        long probe = breaker.tryAcquirePermit();
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.getStateSince()).isEqualTo(START.plusSeconds(75));
        assertThat(breaker.getOpenedAt())
                .as("the trip's time, kept while probing")
                .isEqualTo(START.plusSeconds(60));

        wall.moveTo(START.plusSeconds(80));
        breaker.onSuccess(probe, 0L);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(listener.transitions)
                .extracting(Transition::at)
                .containsExactly(START.plusSeconds(60), START.plusSeconds(75), START.plusSeconds(80));
    }

    @Test
    void anOperatorsChangeIsDatedByTheWallClock() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        wall.moveTo(START.plus(Duration.ofHours(2)));

        breaker.forceOpen();

        assertThat(breaker.getStateSince()).isEqualTo(START.plus(Duration.ofHours(2)));
        assertThat(registry.getWallClock()).isSameAs(wall);
    }

    /** A wall clock the test sets by hand. */
    private static final class MovableClock extends Clock {

        private volatile Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void moveTo(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
