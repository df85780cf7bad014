package io.breaker.jcstress;

import io.breaker.NanoClock;

/**
 * A clock whose time the test sets: "the wait has elapsed" is a fact the test arranges, never a
 * sleep. Every thread reads the same time.
 */
final class TestClock implements NanoClock {

    private volatile long now;

    TestClock(long now) {
        this.now = now;
    }

    void set(long now) {
        this.now = now;
    }

    @Override
    public long nanoTime() {
        return now;
    }
}
