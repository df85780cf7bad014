package io.breaker;

/**
 * A monotonic clock in nanoseconds, like {@link System#nanoTime()}: only differences between two
 * readings mean anything. Tests inject their own to move time without sleeping.
 */
@FunctionalInterface
public interface NanoClock {

    /** Current reading, in nanoseconds from an arbitrary origin. */
    long nanoTime();

    /** The system's monotonic clock. */
    static NanoClock system() {
        return SystemNanoClock.INSTANCE;
    }
}

enum SystemNanoClock implements NanoClock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
