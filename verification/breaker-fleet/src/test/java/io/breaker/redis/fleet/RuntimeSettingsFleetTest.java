package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/** {@link RuntimeSettingsFleet} on one real redis-server. */
@Tag(BootLine.TAG)
class RuntimeSettingsFleetTest extends RuntimeSettingsFleet {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Override
    FleetSettings settings(int instances, Duration openWait, Duration storeTimeout) {
        return FleetSettings.sharedThroughRedis(instances, openWait, storeTimeout);
    }

    @Override
    StoreAddress store() {
        return StoreAddress.redis(redis.port());
    }

    @Override
    String storeType() {
        return "redis";
    }

    @Override
    String tooLongWaitRefusal() {
        return "breakers.store.key-expiry must be longer than";
    }
}
