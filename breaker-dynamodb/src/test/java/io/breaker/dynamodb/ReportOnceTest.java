package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.spi.SharedState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

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

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(4).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

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
        DynamoStateStore plain = stores.store(stores.patient());
        try {
            DynamoStores.warmLink(plain, "pay", CONFIG, NanoClock.system());
        } finally {
            plain.close();
        }
        // As a version of the store without report sequences leaves the item.
        DYNALITE.client()
                .updateItem(request -> request.tableName(stores.table())
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

    private SharedState link(LoseFirstUpdateAnswer interceptor) throws InterruptedException {
        DynamoDbClient client = stores.client(c -> c.addExecutionInterceptor(interceptor));
        return DynamoStores.warmLink(stores.store(client, stores.patient()), "pay", CONFIG, NanoClock.system());
    }

    private Map<String, AttributeValue> item() {
        return stores.item("pay");
    }

    @Test
    void aFailureReportWhoseAnswerWasLostAndRetriedIsCountedOnce() throws Exception {
        LoseFirstUpdateAnswer interceptor = new LoseFirstUpdateAnswer();
        SharedState link = link(interceptor);

        link.recordFailure(CallOutcome.FAILURE);

        assertThat(interceptor.lost.get()).isEqualTo(1); // the first answer was lost, the SDK sent it again
        Map<String, AttributeValue> item = item();
        assertThat(Long.parseLong(item.get("c_failed").n())).isEqualTo(1);
        assertThat(Long.parseLong(item.get("c_calls").n())).isEqualTo(1);
    }
}
