package io.breaker.redis;

/** What a Redis-backed breaker does while Redis cannot be reached. */
public enum StoreFailureMode {

    /**
     * Keep serving: each instance falls back to its own in-memory breaker (its local window trips it,
     * its own probes close it) until Redis answers again. The default.
     */
    OPEN,

    /**
     * Stop calling: the breaker reads OPEN on every instance until Redis answers again (for a
     * dependency that must not be hit without the fleet's verdict).
     */
    CLOSED
}
