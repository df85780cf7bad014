package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.State;
import io.breaker.spi.SharedState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Neither an operator's action nor a failure report is dropped when other instances' writes keep the
 * table from taking it now: it stays with the instance, and its next refresh sends it again until the
 * table takes it.
 */
class KeptUntilTakenTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(4).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    /** The breaker's clock (ns): moved by the tests. */
    private final AtomicLong nanos = new AtomicLong();

    /**
     * Another writer moving the breaker's state between CLOSED and OPEN (as trips and closing probes
     * of other instances do) right after each of the operator's writes that lost its condition, for
     * the first {@code moves} of them.
     */
    private final class StateMovesUnderTheOperator implements ExecutionInterceptor {
        private final AtomicInteger left;
        private final AtomicInteger lost = new AtomicInteger();
        private final DynamoDbClient other = DYNALITE.client();

        StateMovesUnderTheOperator(int moves) {
            this.left = new AtomicInteger(moves);
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
            if (!(context.exception() instanceof ConditionalCheckFailedException)
                    || !(context.request() instanceof UpdateItemRequest update)
                    || !update.expressionAttributeNames().containsValue(ItemLayout.OPERATOR_AT)) {
                return;
            }
            lost.incrementAndGet();
            if (left.getAndDecrement() <= 0) {
                return;
            }
            String state = attribute(ItemLayout.STATE);
            String moved = State.CLOSED.name().equals(state) ? State.OPEN.name() : State.CLOSED.name();
            other.updateItem(request -> request.tableName(stores.table())
                    .key(Map.of(ItemLayout.KEY, AttributeValue.fromS("pay")))
                    .updateExpression("SET #s = :s, #v = #v + :one")
                    .expressionAttributeNames(Map.of("#s", ItemLayout.STATE, "#v", ItemLayout.VERSION))
                    .expressionAttributeValues(
                            Map.of(":s", AttributeValue.fromS(moved), ":one", AttributeValue.fromN("1"))));
        }
    }

    @Test
    void aReleaseTheTableCouldNotTakeYetIsSentAgainUntilItIs() throws Exception {
        // Seven moves: the release's writes lose their conditions until the state is left OPEN.
        StateMovesUnderTheOperator moves = new StateMovesUnderTheOperator(7);
        DynamoDbClient client = stores.client(c -> c.addExecutionInterceptor(moves));
        SharedState link = DynamoStores.warmLink(stores.store(client, stores.patient()), "pay", CONFIG, nanos::get);

        link.operatorSets(State.CLOSED);
        assertThat(moves.lost.get()).isGreaterThanOrEqualTo(8); // every write it tried lost its condition

        calledUntil(link, () -> attribute(ItemLayout.STATE).equals(State.CLOSED.name()));
        assertThat(attribute(ItemLayout.CAUSE)).isEqualTo("OPERATOR");
    }

    /**
     * Makes the first {@code losses} reports' writes lose their condition on the server, as writes
     * racing other instances' for the next block do: each is sent with a condition the item fails.
     */
    private static final class ReportsLoseTheirRace implements ExecutionInterceptor {
        private final AtomicInteger left;

        ReportsLoseTheirRace(int losses) {
            this.left = new AtomicInteger(losses);
        }

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            if (!(context.request() instanceof UpdateItemRequest update)
                    || !update.expressionAttributeNames().containsValue(ItemLayout.SEQUENCES)
                    || left.getAndDecrement() <= 0) {
                return context.request();
            }
            Map<String, String> names = new HashMap<>(update.expressionAttributeNames());
            names.put("#lose", ItemLayout.KEY);
            return update.toBuilder()
                    .conditionExpression("attribute_not_exists(#lose) AND (" + update.conditionExpression() + ")")
                    .expressionAttributeNames(names)
                    .build();
        }
    }

    @Test
    void aFailureReportThatLostEveryRaceIsSentAgainUntilItCounts() throws Exception {
        ReportsLoseTheirRace races = new ReportsLoseTheirRace(16); // every attempt of the first sending
        DynamoDbClient client = stores.client(c -> c.addExecutionInterceptor(races));
        DynamoStateStore store = stores.store(client, stores.patient());
        SharedState link = DynamoStores.warmLink(store, "pay", CONFIG, nanos::get);

        link.recordFailure(CallOutcome.FAILURE);
        assertThat(races.left.get()).isNotPositive(); // every attempt of the first sending lost

        calledUntil(link, () -> attribute(ItemLayout.CURRENT_FAILED).equals("1"));
        assertThat(attribute(ItemLayout.CURRENT_CALLS)).isEqualTo("1");
        assertThat(store.getDeferredReportCount()).isEqualTo(1);
    }

    @Test
    void aBatchOfSuccessesThatLostEveryRaceJoinsTheNextBatch() throws Exception {
        ReportsLoseTheirRace races = new ReportsLoseTheirRace(16); // every attempt of the first refresh's batch
        DynamoDbClient client = stores.client(c -> c.addExecutionInterceptor(races));
        DynamoStateStore store = stores.store(client, stores.patient());
        SharedState link = DynamoStores.warmLink(store, "pay", CONFIG, nanos::get);
        for (int i = 0; i < 3; i++) {
            link.recordSuccess();
        }

        calledUntil(link, () -> attribute(ItemLayout.CURRENT_CALLS).equals("3"));
        assertThat(races.left.get()).isNotPositive();
        assertThat(store.getDeferredReportCount()).isEqualTo(1);
    }

    /**
     * The breaker is called, a cache TTL apart on its clock (each call hands a refresh to the store's
     * pool, as calls do), until {@code condition} holds; fails after 10 s.
     */
    private void calledUntil(SharedState link, BooleanSupplier condition) throws InterruptedException {
        Dynalite.await(() -> {
            nanos.addAndGet(stores.patient().stateCacheTtl().toNanos());
            link.touch();
            return condition.getAsBoolean();
        });
    }

    /** An attribute of the breaker's item as the table has it now, as text. */
    private String attribute(String name) {
        AttributeValue value = stores.item("pay").get(name);
        return value.s() != null ? value.s() : value.n();
    }
}
