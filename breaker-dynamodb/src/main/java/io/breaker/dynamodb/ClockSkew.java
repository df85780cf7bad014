package io.breaker.dynamodb;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * How far this instance's wall clock is from DynamoDB's, measured from the {@code Date} header of
 * every answer. The header has a resolution of one second, so one answer bounds the offset (local
 * minus server) to an interval: [sent - (date + 1 s), received - date]. The store keeps the
 * intersection of the recent intervals (it narrows as answers arrive at different sub-second
 * phases) and restarts from a single answer when they disagree (a clock was stepped).
 *
 * <p>DynamoDB has no clock in expressions, so the instances' clocks decide the protocol's times;
 * two instances differ by at most the sum of their offsets from the server, and a probe lease stays
 * exclusive while that difference is below the lease. Thread-safe: one lock-free snapshot.
 */
final class ClockSkew {

    /** An offset interval, in milliseconds (local minus server): at least {@code low}, at most {@code high}. */
    record Bounds(long low, long high, long answers) {

        /** The middle of the interval: the estimate. */
        Duration estimate() {
            return Duration.ofMillis(Math.floorDiv(low + high, 2));
        }

        /** How far the estimate may be off. */
        Duration uncertainty() {
            return Duration.ofMillis((high - low + 1) / 2);
        }
    }

    private volatile Bounds bounds;

    /** Records one answer: sent and received on the local wall clock (ms), {@code date} the server's header. */
    void observe(long sentMillis, long receivedMillis, Optional<String> date) {
        if (date.isEmpty()) {
            return;
        }
        long serverMillis;
        try {
            serverMillis = ZonedDateTime.parse(date.get(), DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant()
                    .toEpochMilli();
        } catch (RuntimeException unreadable) {
            return;
        }
        long low = sentMillis - (serverMillis + 999);
        long high = receivedMillis - serverMillis;
        Bounds known = bounds;
        if (known == null || low > known.high() || high < known.low()) {
            bounds = new Bounds(low, high, 1);
        } else {
            bounds = new Bounds(Math.max(low, known.low()), Math.min(high, known.high()), known.answers() + 1);
        }
    }

    /** The current bounds, empty before the first answer with a {@code Date} header. */
    Optional<Bounds> bounds() {
        return Optional.ofNullable(bounds);
    }
}
