package io.breaker.dynamodb;

/** What a breaker shared through DynamoDB does while the table cannot be reached ({@code breakers.store.failure-mode}). */
public enum DynamoFailureMode {

    /**
     * Keep serving: each instance acts alone, protected by its own in-memory breaker (its local window
     * trips it, its own probes close it) until the table answers again. The default.
     */
    PROTECT_LOCALLY,

    /** Stop calling: every shared breaker reads OPEN and rejects calls until the table answers again. */
    REJECT
}
