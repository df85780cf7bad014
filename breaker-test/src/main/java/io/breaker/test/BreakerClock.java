package io.breaker.test;

import io.breaker.NanoClock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A virtual clock for breakers: it stands still until a test {@linkplain #advance(Duration) advances}
 * it. It is both the breakers' monotonic clock (their waits, time-based windows and slow-call timer)
 * and, through {@link #wallClock()}, the clock that dates their transitions, so that everything a
 * breaker shows moves together. Thread-safe; it only ever moves forward.
 */
public final class BreakerClock implements NanoClock {

    /** The first reading of {@link #nanoTime()}: far from zero, as the system's clock is. */
    private static final long ORIGIN_NANOS = 1_000_000_000_000L;

    private final Instant start;
    private final AtomicLong elapsedNanos = new AtomicLong();
    private final Clock wallClock;

    private BreakerClock(Instant start) {
        this.start = Objects.requireNonNull(start, "start");
        this.wallClock = new WallClock(this, ZoneOffset.UTC);
    }

    /** A clock whose wall-clock time starts at the real time now (to the millisecond), then stands still. */
    public static BreakerClock startingNow() {
        return new BreakerClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /** A clock whose wall-clock time starts at {@code start}, for tests that assert on dates. */
    public static BreakerClock startingAt(Instant start) {
        return new BreakerClock(start);
    }

    /**
     * Moves time forward by {@code duration} for every breaker on this clock. Nothing happens at once
     * (a breaker has no timer): an OPEN breaker whose wait has now elapsed lets the next call probe.
     *
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public BreakerClock advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative, was " + duration);
        }
        elapsedNanos.addAndGet(duration.toNanos());
        return this;
    }

    /** How far the clock was advanced since it was created. */
    public Duration elapsed() {
        return Duration.ofNanos(elapsedNanos.get());
    }

    /** The wall-clock time now: the start plus {@link #elapsed()}. */
    public Instant instant() {
        return start.plusNanos(elapsedNanos.get());
    }

    @Override
    public long nanoTime() {
        return ORIGIN_NANOS + elapsedNanos.get();
    }

    /** This clock as a {@link Clock} (UTC), for what dates transitions and shows times. */
    public Clock wallClock() {
        return wallClock;
    }

    @Override
    public String toString() {
        return "BreakerClock{" + instant() + ", elapsed=" + elapsed() + "}";
    }

    /** A {@link Clock} view of the virtual clock, in a zone. */
    private static final class WallClock extends Clock {

        private final BreakerClock clock;
        private final ZoneId zone;

        WallClock(BreakerClock clock, ZoneId zone) {
            this.clock = clock;
            this.zone = zone;
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return new WallClock(clock, zone);
        }

        @Override
        public Instant instant() {
            return clock.instant();
        }

        @Override
        public String toString() {
            return "BreakerClock.wallClock{" + clock.instant() + ", " + zone + "}";
        }
    }
}
