package io.breaker.redis.fleet;

import java.util.List;

/**
 * Where every instance of the fleet finds its shared store, as what its command line needs: system
 * properties for the JVM, and Spring Boot arguments ({@code --name=value}). The store's type itself is
 * {@link FleetSettings#store()}.
 *
 * @param jvmArgs   options placed before the main class
 * @param arguments arguments placed after it
 */
record StoreAddress(List<String> jvmArgs, List<String> arguments) {

    StoreAddress {
        jvmArgs = List.copyOf(jvmArgs);
        arguments = List.copyOf(arguments);
    }

    /**
     * A redis-server on this machine. Each operation Redis left unanswered in time is logged at DEBUG: the
     * instance logs explain a miss.
     */
    static StoreAddress redis(int port) {
        return new StoreAddress(
                List.of(),
                List.of(
                        "--spring.data.redis.host=127.0.0.1",
                        "--spring.data.redis.port=" + port,
                        "--logging.level.io.breaker.redis.RedisStateStore=DEBUG"));
    }

    /**
     * A DynamoDB API (dynalite) on this machine and the fleet's table. The store builds its client from the
     * AWS SDK's default chains, given here as system properties: dynalite checks no signature, so any
     * credentials do. Each report the table counted (with the window it read and the window after) is
     * logged at TRACE, and each it gave up at DEBUG: the instance logs explain a trip's count.
     */
    static StoreAddress dynamo(int port, String table) {
        return new StoreAddress(
                List.of("-Daws.region=us-east-1", "-Daws.accessKeyId=fleet", "-Daws.secretAccessKey=fleet"),
                List.of(
                        "--breakers.store.dynamodb.endpoint=http://127.0.0.1:" + port,
                        "--breakers.store.dynamodb.table=" + table,
                        "--logging.level.io.breaker.dynamodb.DynamoStateStore=TRACE"));
    }
}
