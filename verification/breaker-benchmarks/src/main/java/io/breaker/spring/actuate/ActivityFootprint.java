package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.benchmarks.engine.Footprint;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Retained heap of the console's history ({@link BreakerActivity}) per breaker: a history holding one
 * breaker's ring, filled with {@link BreakerActivity#CAPACITY} samples, measured as {@link Footprint}
 * measures a breaker (the difference in used heap after full collections, median of three rounds).
 * The figure includes the history's own object and map, which an application has once, not per breaker.
 *
 * <p>In this package because taking a sample ({@code BreakerActivity.read}) is the endpoint's, not public.
 * {@code ActivityFootprint [histories]}, default 2,000.
 */
public final class ActivityFootprint {

    private ActivityFootprint() {}

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        CircuitBreaker breaker = CircuitBreaker.of("activity", BreakerConfig.ofDefaults());
        long full = Footprint.retainedPerBreaker(count, name -> filled(breaker, BreakerActivity.CAPACITY));
        long empty = Footprint.retainedPerBreaker(count, name -> filled(breaker, 0));
        System.out.printf(
                "Console history per breaker (%,d histories, median of 3 rounds): full (%d samples) %,d B,"
                        + " without samples %,d B, so %,d B per sample%n",
                count, BreakerActivity.CAPACITY, full, empty, (full - empty) / BreakerActivity.CAPACITY);
    }

    /** A history of one breaker after {@code samples} reads, each a spacing after the last. */
    private static BreakerActivity filled(CircuitBreaker breaker, int samples) {
        SteppingClock clock = new SteppingClock();
        BreakerActivity activity = new BreakerActivity(clock, null);
        for (int i = 0; i < samples; i++) {
            activity.read(breaker, breaker.getState(), breaker.getMetrics());
            clock.now = clock.now.plus(BreakerActivity.SPACING);
        }
        return activity;
    }

    /** A wall clock moved by hand. */
    private static final class SteppingClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
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
