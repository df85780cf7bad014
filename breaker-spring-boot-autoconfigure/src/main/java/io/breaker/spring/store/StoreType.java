package io.breaker.spring.store;

/**
 * Where a breaker keeps its state ({@code breakers.store.type}, {@code breakers.instances.<name>.store.type}).
 * Each store module shares the breakers of its own type and leaves the others alone.
 */
public enum StoreType {

    /** In the instance's memory: each instance has its own breaker (the default). */
    MEMORY,

    /** In Redis, through {@code breaker-redis}: every instance of the application shares one breaker state. */
    REDIS,

    /** In a DynamoDB table, through {@code breaker-dynamodb}: every instance shares one breaker state. */
    DYNAMODB
}
