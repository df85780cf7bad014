package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.spi.SharedState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A report the table applied but whose answer was lost: the SDK sends the same request again (its
 * retry strategy retries a 5xx), and the fleet's window must still count the report once.
 */
class ReportOnceTest {

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

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        if (client != null) {
            client.close();
        }
    }

    /** Turns the answer of the first UpdateItem the server applied into a 500, as a lost answer would look. */
    private static final class LoseFirstUpdateAnswer implements ExecutionInterceptor {
        final AtomicInteger lost = new AtomicInteger();

        @Override
        public SdkHttpResponse modifyHttpResponse(
                Context.ModifyHttpResponse context, ExecutionAttributes executionAttributes) {
            SdkHttpResponse response = context.httpResponse();
            if (context.request() instanceof UpdateItemRequest && response.isSuccessful() && lost.compareAndSet(0, 1)) {
                return response.toBuilder().statusCode(500).build();
            }
            return response;
        }
    }

    @Test
    void anItemWrittenWithoutSequencesCountsEachReportOnce() throws Exception {
        DynamoStateStore plain = new DynamoStateStore(DYNALITE.client(), Dynalite.patient(table));
        try {
            SharedState first = plain.attach("pay", CONFIG);
            first.connect(verdict -> {}, NanoClock.system());
            Dynalite.await(plain::isWarm);
        } finally {
            plain.close();
        }
        // As a version of the store without report sequences leaves the item.
        DYNALITE.client()
                .updateItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS("pay")))
                        .updateExpression("REMOVE seqs"));
        assertThat(item()).doesNotContainKey("seqs");

        LoseFirstUpdateAnswer interceptor = new LoseFirstUpdateAnswer();
        SharedState link = link(interceptor);
        link.recordFailure(CallOutcome.FAILURE); // creates the map; its first answer is lost and retried
        link.recordFailure(CallOutcome.FAILURE); // then an entry of the map

        assertThat(interceptor.lost.get()).isEqualTo(1);
        assertThat(item().get("c_failed").n()).isEqualTo("2");
        assertThat(item().get("seqs").m()).hasSize(1);
    }

    private DynamoDbClient client;

    private SharedState link(LoseFirstUpdateAnswer interceptor) throws InterruptedException {
        client = DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + DYNALITE.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(
                        c -> c.apiCallTimeout(Duration.ofSeconds(10)).addExecutionInterceptor(interceptor))
                .build();
        store = new DynamoStateStore(client, Dynalite.patient(table));
        SharedState link = store.attach("pay", CONFIG);
        link.connect(verdict -> {}, NanoClock.system());
        Dynalite.await(store::isWarm);
        return link;
    }

    private Map<String, AttributeValue> item() {
        return DYNALITE.client()
                .getItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS("pay")))
                        .consistentRead(true))
                .item();
    }

    @Test
    void aFailureReportWhoseAnswerWasLostAndRetriedIsCountedOnce() throws Exception {
        LoseFirstUpdateAnswer interceptor = new LoseFirstUpdateAnswer();
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + DYNALITE.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(
                        c -> c.apiCallTimeout(Duration.ofSeconds(10)).addExecutionInterceptor(interceptor))
                .build();
        store = new DynamoStateStore(client, Dynalite.patient(table));
        SharedState link = store.attach("pay", CONFIG);
        link.connect(verdict -> {}, NanoClock.system());
        Dynalite.await(store::isWarm);

        link.recordFailure(CallOutcome.FAILURE);

        assertThat(interceptor.lost.get()).isEqualTo(1); // the first answer was lost, the SDK sent it again
        Map<String, AttributeValue> item = DYNALITE.client()
                .getItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS("pay")))
                        .consistentRead(true))
                .item();
        assertThat(Long.parseLong(item.get("c_failed").n())).isEqualTo(1);
        assertThat(Long.parseLong(item.get("c_calls").n())).isEqualTo(1);
        client.close();
    }
}
