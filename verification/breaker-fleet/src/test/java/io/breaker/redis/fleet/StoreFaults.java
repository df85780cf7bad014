package io.breaker.redis.fleet;

import io.breaker.dynamodb.Dynalite;
import io.breaker.redis.RedisSentinel;
import io.breaker.redis.RedisServer;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;

import java.time.Duration;

/**
 * The faults a round can inject into the fleet's shared store, whatever runs it: one redis-server, a
 * Sentinel set-up, or a dynalite server (DynamoDB's API).
 */
interface StoreFaults {

    /** Freezes the store's process (SIGSTOP): connections stay open, nothing answers. */
    void pause() throws Exception;

    /** Thaws it (SIGCONT). */
    void resume() throws Exception;

    /** Kills the store's process (SIGKILL) and starts it again on the same port with no data. */
    void restartEmpty() throws Exception;

    /** Kills the master (SIGKILL) and waits until a replica is promoted: only a replicated store has one. */
    default void failover() throws Exception {
        throw new UnsupportedOperationException("this store has no replica to fail over to");
    }

    /** One standalone redis-server: every fault but a failover. */
    static StoreFaults of(RedisServer redis) {
        return new StoreFaults() {
            @Override
            public void pause() throws Exception {
                redis.pause();
            }

            @Override
            public void resume() throws Exception {
                redis.resume();
            }

            @Override
            public void restartEmpty() throws Exception {
                redis.kill();
                redis.start(); // on the same port, with no data: persistence is off
            }
        };
    }

    /**
     * One dynalite server holding the fleet's {@code table}: every fault but a failover. dynalite keeps its
     * tables in memory, so a restart loses the table with the breaker's item; the table is created again
     * at once, empty, as whoever provisions it would (a DynamoDB table does not vanish with a server). What
     * the fleet loses is its item.
     */
    static StoreFaults of(Dynalite dynalite, String table) {
        return new StoreFaults() {
            @Override
            public void pause() throws Exception {
                dynalite.pause();
            }

            @Override
            public void resume() throws Exception {
                dynalite.resume();
            }

            @Override
            public void restartEmpty() throws Exception {
                dynalite.kill();
                dynalite.start();
                try {
                    dynalite.createTable(table);
                } catch (ResourceInUseException createdMeanwhile) {
                    // an instance's store created it first: the same empty table
                }
            }
        };
    }

    /** A master, a replica and three sentinels: only a failover. */
    static StoreFaults of(RedisSentinel sentinel) {
        return new StoreFaults() {
            @Override
            public void pause() {
                throw new UnsupportedOperationException("pause the master of a Sentinel set-up: not done here");
            }

            @Override
            public void resume() {
                throw new UnsupportedOperationException("pause the master of a Sentinel set-up: not done here");
            }

            @Override
            public void restartEmpty() {
                throw new UnsupportedOperationException("restart the master of a Sentinel set-up: not done here");
            }

            @Override
            public void failover() throws Exception {
                sentinel.killMaster();
                sentinel.awaitFailover(Duration.ofSeconds(30));
            }
        };
    }
}
