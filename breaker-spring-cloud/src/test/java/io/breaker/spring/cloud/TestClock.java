package io.breaker.spring.cloud;

import io.breaker.NanoClock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A nano clock the test moves. */
public final class TestClock implements NanoClock {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long nanoTime() {
        return now.get();
    }

    public void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
