package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.spi.SharedState;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failure reports sent while the table is paused (dynalite under SIGSTOP) get no answer: the client
 * gives up on them. They are kept and sent again once the table answers, and counted once.
 */
class UnansweredReportTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(10)
            .minimumNumberOfCalls(4)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(60))
            .build();

    private final String table = DYNALITE.createTable();
    private DynamoStateStore store;
    private DynamoDbClient client;

    @AfterEach
    void resumeAndClose() throws Exception {
        DYNALITE.resume();
        if (store != null) {
            store.close();
        }
        if (client != null) {
            client.close();
        }
    }

    /**
     * A store whose client gives up on a request after 1 s (a table paused longer gives it no answer),
     * waiting 100 ms for an answer and caching the state for 300 ms; no outage is declared for 10 s.
     */
    private SharedState link(AtomicInteger operationsEnded) {
        client = DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + DYNALITE.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(1)))
                .build();
        store = new DynamoStateStore(
                client,
                new DynamoStoreSettings(
                        table,
                        Duration.ofMillis(300),
                        Duration.ofMillis(100),
                        StoreFailureMode.PROTECT_LOCALLY,
                        Duration.ofDays(1),
                        Duration.ofSeconds(10)));
        store.onOperationTimed(nanos -> operationsEnded.incrementAndGet());
        SharedState link = store.attach("pay", CONFIG);
        link.connect(verdict -> {}, NanoClock.system());
        return link;
    }

    @Test
    void failuresReportedWhileTheTableIsPausedReachItOnceEachWhenItAnswers() throws Exception {
        AtomicInteger ended = new AtomicInteger();
        SharedState link = link(ended);
        Dynalite.await(store::isWarm);
        DYNALITE.pause();
        int before = ended.get();

        for (int i = 0; i < 2; i++) {
            assertThat(link.recordFailure(CallOutcome.FAILURE)).isNull(); // no answer within the store's timeout
        }
        Dynalite.await(() -> ended.get() >= before + 2); // the client gave up on both reports

        DYNALITE.resume();
        Dynalite.await(() -> {
            link.touch(); // each refresh sends the unacknowledged report again
            return Long.parseLong(item().get("c_failed").n()) > 0;
        });
        int refreshed = ended.get();
        Dynalite.await(() -> {
            link.touch();
            return ended.get() > refreshed + 2; // a few more refreshes
        });
        Map<String, AttributeValue> item = item();
        assertThat(item.get("c_failed").n()).isEqualTo("2");
        assertThat(item.get("c_calls").n()).isEqualTo("2");
    }

    @Test
    void enoughFailuresReportedWhileTheTableIsPausedTripTheFleetOnceItAnswers() throws Exception {
        AtomicInteger ended = new AtomicInteger();
        SharedState link = link(ended);
        Dynalite.await(store::isWarm);
        DYNALITE.pause();
        int before = ended.get();

        for (int i = 0; i < CONFIG.getMinimumNumberOfCalls(); i++) {
            link.recordFailure(CallOutcome.FAILURE);
        }
        Dynalite.await(() -> ended.get() >= before + CONFIG.getMinimumNumberOfCalls());

        DYNALITE.resume();
        Dynalite.await(() -> {
            link.touch();
            return "OPEN".equals(item().get("state").s());
        });
        assertThat(item().get("tripped").s()).isEqualTo("4,4,0"); // as one breaker with these settings would
    }

    private Map<String, AttributeValue> item() {
        return DYNALITE.client()
                .getItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS("pay")))
                        .consistentRead(true))
                .item();
    }
}
