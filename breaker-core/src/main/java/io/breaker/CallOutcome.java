package io.breaker;

/** How a permitted call ended, as the breaker recorded it. */
public enum CallOutcome {

    /** Completed normally within the slow-call threshold. */
    SUCCESS,

    /** Completed normally, but slower than the slow-call threshold. */
    SLOW_SUCCESS,

    /** Failed with an exception that counts as a failure. */
    FAILURE,

    /** Failed with an exception that counts as a failure, and was slow too. */
    SLOW_FAILURE,

    /** Failed with an exception that counts neither as success nor as failure. */
    IGNORED
}
