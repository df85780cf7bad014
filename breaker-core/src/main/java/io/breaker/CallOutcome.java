package io.breaker;

/** How a permitted call ended, as the breaker recorded it. */
public enum CallOutcome {

    /** Completed normally within the slow-call threshold. */
    SUCCESS,

    /** Completed normally, but slower than the slow-call threshold. */
    SLOW_SUCCESS,

    /**
     * Cancelled by its caller (a reactive caller's {@code timeout()}, for one) before any result, after
     * running past the slow-call threshold: counts as a slow call, not as a failure, and is no success.
     */
    SLOW_CANCELLED,

    /** Failed with an exception that counts as a failure. */
    FAILURE,

    /** Failed with an exception that counts as a failure, and was slow too. */
    SLOW_FAILURE,

    /** Failed with an exception that counts neither as success nor as failure. */
    IGNORED
}
