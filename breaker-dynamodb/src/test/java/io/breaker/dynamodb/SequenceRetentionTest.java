package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.spi.SharedState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The window's report sequences ({@code seqs}) keep one entry per instance that reported, and a healthy
 * window lasts until the next trip: without a bound, every instance a deployment replaced would stay
 * in the item, and each write would cost one more unit per KB it grew. Entries numbered more than
 * {@link FleetTable#ENTRY_RETENTION_MILLIS} ago are removed by the next report; a report an instance
 * sent long ago without an answer is given up rather than sent again, so a removed entry never lets
 * a report count twice.
 */
class SequenceRetentionTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private static final BreakerConfig CONFIG = DynamoStores.NEVER_TRIPS;

    /** The fleet's wall clock (ms); every instance reads it. */
    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);

    private SharedState instance() throws InterruptedException {
        return DynamoStores.warmLink(stores.store(stores.patient(), wall::get), "pay", CONFIG, NanoClock.system());
    }

    private Map<String, AttributeValue> sequences() {
        return stores.item("pay").get(ItemLayout.SEQUENCES).m();
    }

    private long failed() {
        Map<String, AttributeValue> item = stores.item("pay");
        return Long.parseLong(item.get(ItemLayout.CURRENT_FAILED).n())
                + Long.parseLong(item.get(ItemLayout.PREVIOUS_FAILED).n());
    }

    @Test
    void theEntriesOfInstancesThatStoppedReportingAreRemovedByTheNextReport() throws Exception {
        instance().recordFailure(CallOutcome.FAILURE);
        instance().recordFailure(CallOutcome.FAILURE);
        assertThat(sequences()).hasSize(2);

        wall.addAndGet(Duration.ofMinutes(11).toMillis()); // both stopped (replaced by a deployment, say)
        instance().recordFailure(CallOutcome.FAILURE);

        assertThat(sequences()).hasSize(1);
        assertThat(failed()).isEqualTo(3); // the window itself keeps every report
    }

    @Test
    void theEntryOfAnInstanceThatReportedWithinTheRetentionStays() throws Exception {
        instance().recordFailure(CallOutcome.FAILURE);

        wall.addAndGet(Duration.ofMinutes(9).toMillis());
        instance().recordFailure(CallOutcome.FAILURE);

        assertThat(sequences()).hasSize(2);
    }

    /** Turns the answers of the UpdateItems the server applied into 500s while {@link #losing}. */
    private static final class LoseUpdateAnswers implements ExecutionInterceptor {
        final AtomicBoolean losing = new AtomicBoolean();

        @Override
        public SdkHttpResponse modifyHttpResponse(
                Context.ModifyHttpResponse context, ExecutionAttributes executionAttributes) {
            SdkHttpResponse response = context.httpResponse();
            if (losing.get() && context.request() instanceof UpdateItemRequest && response.isSuccessful()) {
                return response.toBuilder().statusCode(500).build();
            }
            return response;
        }
    }

    @Test
    void aReportSentLongAgoWithoutAnAnswerIsGivenUpNotCountedTwice() throws Exception {
        LoseUpdateAnswers interceptor = new LoseUpdateAnswers();
        DynamoDbClient client =
                stores.client(c -> c.addExecutionInterceptor(interceptor).retryStrategy(AwsRetryStrategy.doNotRetry()));
        SharedState lossy = DynamoStores.warmLink(
                stores.store(client, stores.patient(), wall::get), "pay", CONFIG, NanoClock.system());
        interceptor.losing.set(true);
        assertThat(lossy.recordFailure(CallOutcome.FAILURE)).isNull(); // applied, its answer lost: kept
        interceptor.losing.set(false);
        assertThat(failed()).isEqualTo(1);

        wall.addAndGet(Duration.ofMinutes(11).toMillis());
        instance().recordFailure(CallOutcome.FAILURE); // removes the lossy instance's entry
        assertThat(failed()).isEqualTo(2);

        lossy.recordFailure(CallOutcome.FAILURE); // sends what it kept first, then this one

        assertThat(failed()).isEqualTo(3);
    }
}
