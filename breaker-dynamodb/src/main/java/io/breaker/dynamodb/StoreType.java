package io.breaker.dynamodb;

/**
 * Where a breaker keeps its state ({@code breakers.store.type}, {@code breakers.instances.<name>.store.type}),
 * as this module reads it: the values every store module accepts, so that an application with more
 * than one of them binds the same text.
 */
public enum StoreType {

    /** In the instance's memory: each instance has its own breaker (the default). */
    MEMORY,

    /** In Redis, through breaker-redis; this module leaves such a breaker to that store. */
    REDIS,

    /** In a DynamoDB table: every instance of the application shares one breaker state. */
    DYNAMODB
}
