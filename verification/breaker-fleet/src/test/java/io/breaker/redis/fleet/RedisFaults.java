package io.breaker.redis.fleet;

import io.breaker.redis.RedisSentinel;
import io.breaker.redis.RedisServer;

import java.time.Duration;

/** The faults a round can inject into the fleet's Redis, whatever runs it: one server, or a Sentinel set-up. */
interface RedisFaults {

    /** Freezes Redis (SIGSTOP): connections stay open, nothing answers. */
    void pause() throws Exception;

    /** Thaws it (SIGCONT). */
    void resume() throws Exception;

    /** Kills Redis (SIGKILL) and starts it again with no data. */
    void restartEmpty() throws Exception;

    /** Kills the master (SIGKILL) and waits until the sentinels promoted the replica. */
    void failover() throws Exception;

    /** One standalone redis-server: every fault but a failover. */
    static RedisFaults of(RedisServer redis) {
        return new RedisFaults() {
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

            @Override
            public void failover() {
                throw new UnsupportedOperationException("a standalone redis-server has no replica to fail over to");
            }
        };
    }

    /** A master, a replica and three sentinels: only a failover. */
    static RedisFaults of(RedisSentinel sentinel) {
        return new RedisFaults() {
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
