package io.breaker.redis;

/** Where a breaker keeps its state ({@code breakers.store.type}, {@code breakers.instances.<name>.store.type}). */
public enum StoreType {

    /** In the instance's memory: each instance has its own breaker (the default). */
    MEMORY,

    /** In Redis: every instance of the application shares one breaker state. */
    REDIS,

    /** In a DynamoDB table, through breaker-dynamodb; this module leaves such a breaker to that store. */
    DYNAMODB
}
