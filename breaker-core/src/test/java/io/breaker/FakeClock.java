package io.breaker;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that tests move by hand; it also counts how often it was read. */
final class FakeClock implements NanoClock {

    private final AtomicLong now;
    private final AtomicLong reads = new AtomicLong();

    FakeClock() {
        this(1_000_000_000L);
    }

    FakeClock(long startNanos) {
        this.now = new AtomicLong(startNanos);
    }

    @Override
    public long nanoTime() {
        reads.incrementAndGet();
        return now.get();
    }

    FakeClock advance(Duration duration) {
        now.addAndGet(duration.toNanos());
        return this;
    }

    FakeClock advanceMillis(long millis) {
        return advance(Duration.ofMillis(millis));
    }

    long reads() {
        return reads.get();
    }
}
