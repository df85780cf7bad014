package io.breaker.spi;

import io.breaker.CallOutcome;

/**
 * How a window records one call: a small bit set, {@link #CALL} on every recorded call, plus
 * {@link #FAILED} and {@link #SLOW} when they apply. The one definition: the in-memory windows use
 * these values, and a store that keeps a shared window uses them too (breaker-redis hands them to
 * its Lua scripts when it loads them).
 */
public final class OutcomeBits {

    /** Set on every recorded call. */
    public static final int CALL = 1;
    /** Set on a failed call. */
    public static final int FAILED = 2;
    /** Set on a slow call. */
    public static final int SLOW = 4;

    private OutcomeBits() {}

    /**
     * The bits of a recorded outcome; 0 for {@link CallOutcome#IGNORED}, which no window records.
     */
    public static int of(CallOutcome outcome) {
        switch (outcome) {
            case SUCCESS:
                return CALL;
            case SLOW_SUCCESS:
            case SLOW_CANCELLED:
                return CALL | SLOW;
            case FAILURE:
                return CALL | FAILED;
            case SLOW_FAILURE:
                return CALL | FAILED | SLOW;
            default:
                return 0;
        }
    }
}
