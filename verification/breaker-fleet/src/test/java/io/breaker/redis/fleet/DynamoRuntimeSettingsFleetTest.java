package io.breaker.redis.fleet;

import io.breaker.dynamodb.Dynalite;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/**
 * {@link RuntimeSettingsFleet} on a table of a real DynamoDB API server (dynalite, which the
 * {@link Dynalite} fixture installs with npm): the settings travel in the breaker's item.
 */
@Tag(BootLine.TAG)
class DynamoRuntimeSettingsFleetTest extends RuntimeSettingsFleet {

    @RegisterExtension
    static final Dynalite dynalite = new Dynalite();

    @Override
    FleetSettings settings(int instances, Duration openWait, Duration storeTimeout) {
        return FleetSettings.sharedThroughDynamo(instances, openWait, storeTimeout);
    }

    @Override
    StoreAddress store() {
        return StoreAddress.dynamo(dynalite.port(), dynalite.createTable());
    }

    @Override
    String storeType() {
        return "dynamodb";
    }

    @Override
    String tooLongWaitRefusal() {
        return "breakers.store.dynamodb.item-expiry was 'PT168H'; allowed: longer than";
    }
}
