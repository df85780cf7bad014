package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
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
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a write on a breaker's item costs. DynamoDB bills a write one write unit per KB started of the
 * larger of the item before and after it, and the item grows with {@code seqs}: one entry per instance
 * that reported in the current window. Each instance here is its own store (its own instance id), all
 * reporting into one CLOSED window of one breaker. dynalite answers {@code ReturnConsumedCapacity=TOTAL}
 * with the units by DynamoDB's item-size rules; {@link BilledSize} computes the same size from the
 * documented rules, which gives the largest fleet whose writes stay at one unit.
 */
class ItemSizeTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    /** A breaker name of 15 characters; each character more adds one byte to the item. */
    private static final String NAME = "payment-service";

    /** The fleet the cost section of docs/dynamodb.md prices. */
    private static final int FLEET = 40;

    /**
     * The largest sequence of 10 digits: a sequence counts hundredths of a second since 2025 (see
     * {@link FleetTable#nextSequence}), so every sequence numbered until March 2028 is at most this long.
     */
    private static final long OLD_SEQUENCE = 9_999_999_999L;

    private static final int KB = 1024;

    private static final BreakerConfig CONFIG = DynamoStores.NEVER_TRIPS;

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private final WriteUnits units = new WriteUnits();
    private final DynamoDbClient client = stores.client(c -> c.addExecutionInterceptor(units));

    @Test
    void aWriteOnTheItemOfFortyInstancesIsOneWriteUnit() throws InterruptedException {
        report(FLEET);

        Map<String, AttributeValue> item = item();
        assertThat(item.get("seqs").m()).hasSize(FLEET);
        assertThat(item.get("c_failed").n()).isEqualTo(Integer.toString(FLEET));
        double reports = units.max();
        int size = BilledSize.of(item);
        int aged = BilledSize.of(withSequences(item, OLD_SEQUENCE));
        double agedWrite = ageSequences();
        String measured = FLEET + " instances: item " + size + " bytes (" + aged + " with 10-digit sequences), "
                + "largest report write " + reports + " units, write on the aged item " + agedWrite + " units";
        System.out.println("[ItemSizeTest] " + measured);

        assertThat(reports).as(measured).isEqualTo(1.0);
        assertThat(aged).as(measured).isLessThanOrEqualTo(KB);
        assertThat(agedWrite).as(measured).isEqualTo(1.0);
    }

    @Test
    void theTableChargesTwoUnitsOneInstancePastTheComputedBreakEven() throws InterruptedException {
        report(1);
        Map<String, AttributeValue> item = item();
        String id = item.get("seqs").m().keySet().iterator().next();
        Map<String, AttributeValue> empty = new HashMap<>(item);
        empty.put("seqs", ItemLayout.emptyMap());
        int base = BilledSize.of(empty);
        int entry = BilledSize.entry(id, OLD_SEQUENCE);
        int breakEven = (KB - base) / entry;
        String computed = "item without entries " + base + " bytes, one entry " + entry + " bytes (id of " + id.length()
                + " characters): break-even " + breakEven + " instances";
        System.out.println("[ItemSizeTest] " + computed);

        report(breakEven - 1);
        assertThat(BilledSize.of(withSequences(item(), OLD_SEQUENCE)))
                .as(computed)
                .isLessThanOrEqualTo(KB);
        assertThat(ageSequences()).as(computed).isEqualTo(1.0);

        report(1);
        assertThat(BilledSize.of(withSequences(item(), OLD_SEQUENCE)))
                .as(computed)
                .isGreaterThan(KB);
        assertThat(ageSequences()).as(computed).isEqualTo(2.0);
    }

    @Test
    void entriesAndALeaseOfAnInstanceWithAnIdOfAnotherFormatAreOtherInstances() throws InterruptedException {
        String older = "0f8fad5b-d9cb-469f-a165-70867728950e"; // an id as a version with UUID ids wrote it
        SharedState link = report(1).get(0);
        client.updateItem(request -> request.tableName(stores.table())
                .key(key())
                .updateExpression("SET seqs.#older = :seq")
                .expressionAttributeNames(Map.of("#older", older))
                .expressionAttributeValues(Map.of(":seq", AttributeValue.fromN("7"))));

        assertThat(link.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.CLOSED);
        Map<String, AttributeValue> item = item();
        assertThat(item.get("c_failed").n()).isEqualTo("2");
        assertThat(item.get("seqs").m()).hasSize(2).containsEntry(older, AttributeValue.fromN("7"));

        // A probe lease held by that instance: live, nobody else probes; run out, this one takes it over.
        long now = System.currentTimeMillis();
        setLease(older, now + 60_000);
        assertThat(link.tryAcquireProbe().state()).isEqualTo(State.OPEN);
        setLease(older, now - 1);
        assertThat(link.tryAcquireProbe().state()).isEqualTo(State.HALF_OPEN);
        assertThat(item().get("lease_owner").s()).isNotEqualTo(older);
        assertThat(link.probesSucceeded().state()).isEqualTo(State.CLOSED);
    }

    @Test
    void anInstanceIdIsElevenUrlSafeCharactersOfRandomBits() {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = DynamoStateStore.newInstanceId();
            assertThat(id).matches("[A-Za-z0-9_-]{11}");
            ids.add(id);
        }
        assertThat(ids).hasSize(100_000);
    }

    /** Adds {@code count} instances, each its own store, each reporting one failure into the window. */
    private List<SharedState> report(int count) throws InterruptedException {
        List<SharedState> links = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            SharedState link =
                    DynamoStores.warmLink(stores.store(client, stores.patient()), NAME, CONFIG, NanoClock.system());
            assertThat(link.recordFailure(CallOutcome.FAILURE).state()).isEqualTo(State.CLOSED);
            links.add(link);
        }
        return links;
    }

    /**
     * Sets every entry of {@code seqs} to {@link #OLD_SEQUENCE} with one write, and answers the write
     * units the table charged for it: those of the larger of the item before and after, as for any write
     * on that item.
     */
    private double ageSequences() {
        Map<String, String> names = new HashMap<>();
        List<String> paths = new ArrayList<>();
        for (String id : item().get("seqs").m().keySet()) {
            String placeholder = "#i" + names.size();
            names.put(placeholder, id);
            paths.add("seqs." + placeholder + " = :old");
        }
        UpdateItemResponse answer = client.updateItem(request -> request.tableName(stores.table())
                .key(key())
                .updateExpression("SET " + String.join(", ", paths))
                .expressionAttributeNames(names)
                .expressionAttributeValues(Map.of(":old", ItemLayout.n(OLD_SEQUENCE)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        return answer.consumedCapacity().capacityUnits();
    }

    private void setLease(String owner, long until) {
        client.updateItem(request -> request.tableName(stores.table())
                .key(key())
                .updateExpression("SET #state = :half, lease_owner = :owner, lease_until = :until, ver = ver + :one")
                .expressionAttributeNames(Map.of("#state", "state"))
                .expressionAttributeValues(Map.of(
                        ":half", AttributeValue.fromS(State.HALF_OPEN.name()),
                        ":one", ItemLayout.n(1),
                        ":owner", AttributeValue.fromS(owner),
                        ":until", ItemLayout.n(until))));
    }

    private static Map<String, AttributeValue> withSequences(Map<String, AttributeValue> item, long sequence) {
        Map<String, AttributeValue> entries = new HashMap<>();
        item.get("seqs").m().keySet().forEach(id -> entries.put(id, ItemLayout.n(sequence)));
        Map<String, AttributeValue> aged = new HashMap<>(item);
        aged.put("seqs", AttributeValue.fromM(entries));
        return aged;
    }

    private Map<String, AttributeValue> key() {
        return Map.of("breaker", AttributeValue.fromS(NAME));
    }

    private Map<String, AttributeValue> item() {
        return stores.item(NAME);
    }

    /** Asks for the consumed capacity of every UpdateItem the stores send, and keeps the answers'. */
    private static final class WriteUnits implements ExecutionInterceptor {
        private final List<Double> units = new CopyOnWriteArrayList<>();

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes executionAttributes) {
            if (context.request() instanceof UpdateItemRequest update && update.returnConsumedCapacity() == null) {
                return update.toBuilder()
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
            }
            return context.request();
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes executionAttributes) {
            if (context.response() instanceof UpdateItemResponse answer && answer.consumedCapacity() != null) {
                units.add(answer.consumedCapacity().capacityUnits());
            }
        }

        double max() {
            return units.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        }
    }

    /**
     * An item's size by DynamoDB's documented rules, in bytes: each attribute's name plus its value.
     * A string is its UTF-8 bytes; a number one byte per pair of significant digits (pairs counted from
     * the decimal point, leading and trailing zeros trimmed) plus one; a map 3 bytes plus, per entry, one
     * byte, the key and the value.
     */
    static final class BilledSize {

        private BilledSize() {}

        static int of(Map<String, AttributeValue> item) {
            int size = 0;
            for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
                size += utf8(attribute.getKey()) + value(attribute.getValue());
            }
            return size;
        }

        /** One entry of a map: its byte, its key, and a number value. */
        static int entry(String key, long number) {
            return 1 + utf8(key) + number(Long.toString(number));
        }

        static int value(AttributeValue value) {
            switch (value.type()) {
                case S:
                    return utf8(value.s());
                case N:
                    return number(value.n());
                case BOOL:
                case NUL:
                    return 1;
                case M:
                    int size = 3;
                    for (Map.Entry<String, AttributeValue> entry : value.m().entrySet()) {
                        size += 1 + utf8(entry.getKey()) + value(entry.getValue());
                    }
                    return size;
                default:
                    throw new IllegalArgumentException("not in the store's layout: " + value.type());
            }
        }

        /** An integer, as the store writes them. */
        static int number(String text) {
            String digits = text.startsWith("-") ? text.substring(1) : text;
            digits = digits.replaceFirst("^0+", "");
            if (digits.isEmpty()) {
                return 1; // zero
            }
            int trailingZeros = digits.length() - digits.replaceFirst("0+$", "").length();
            int pairs = (digits.length() + 1) / 2 - trailingZeros / 2;
            return pairs + 1 + (text.startsWith("-") ? 1 : 0);
        }

        private static int utf8(String text) {
            return text.getBytes(StandardCharsets.UTF_8).length;
        }
    }
}
