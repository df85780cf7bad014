package io.breaker.jcstress;

import io.breaker.NanoClock;

/**
 * A clock on which each thread reads the time it set for itself: it models two actors whose calls
 * end at different, known moments (actor 2 one second after actor 1), so that a probe time shows
 * which actor's trip fixed it, and a listener (which runs on the thread that won the transition)
 * reads the winner's time. Each actor sets its time first thing, so what a thread set in an
 * earlier iteration never leaks.
 */
final class ActorClock implements NanoClock {

    private static final ThreadLocal<long[]> NOW = ThreadLocal.withInitial(() -> new long[1]);

    /** The time the calling thread reads from now on. */
    static void setForThisThread(long now) {
        NOW.get()[0] = now;
    }

    @Override
    public long nanoTime() {
        return NOW.get()[0];
    }
}
