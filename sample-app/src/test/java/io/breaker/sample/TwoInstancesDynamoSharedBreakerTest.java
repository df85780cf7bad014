package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.breaker.dynamodb.Dynalite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two bookshops of {@link TwoBookshopsSharingOneBreaker} with the {@code dynamodb} profile, on
 * one dynalite with the table the profile names by default ({@code breaker-state}), created as the
 * README says; the endpoint is given the way a user gives it, as {@code DYNAMODB_ENDPOINT}. The
 * breaker's state is the table's item, and a frozen dynalite leaves both instances UP.
 */
class TwoInstancesDynamoSharedBreakerTest extends TwoBookshopsSharingOneBreaker {

    @RegisterExtension
    static final Dynalite dynalite = new Dynalite();

    private static final String TABLE = "breaker-state";
    private static final Duration WITHIN = Duration.ofSeconds(10);
    /** What the AWS SDK's default chains read, as a user sets them in the environment (AWS_REGION, ...). */
    private static final Map<String, String> AWS = Map.of(
            "aws.region", "us-east-1",
            "aws.accessKeyId", "bookshop",
            "aws.secretAccessKey", "bookshop");

    @Override
    String storeProfile() {
        return "dynamodb";
    }

    @Override
    List<String> storeArguments() {
        // The profile's placeholder, resolved from the command line here as from the environment elsewhere.
        return List.of("--DYNAMODB_ENDPOINT=http://127.0.0.1:" + dynalite.port());
    }

    @Override
    void beforeStart() {
        dynalite.createTable(TABLE);
        AWS.forEach(System::setProperty);
    }

    @Override
    void afterStop() {
        AWS.keySet().forEach(System::clearProperty);
    }

    @Test
    void theBreakersStateIsTheTablesItem() {
        DynamoDbClient table = dynalite.client();
        // An operator's change the table did not take within the store timeout is sent again by the next
        // refresh: bounded polls, each refresh started by a call.
        assertThat(a.postState("OPEN")).isEqualTo(200);
        await(WITHIN, () -> a.call().equals("fallback-open") && state(table).equals("FORCED_OPEN"));

        assertThat(b.postState("AUTO")).isEqualTo(200);
        await(WITHIN, () -> b.call().equals("live") && state(table).equals("CLOSED"));
        await(WITHIN, () -> a.call().equals("live"));
    }

    @Test
    void aFrozenDynaliteLeavesEveryInstanceUp() throws Exception {
        JsonNode health = json(a.health());
        assertThat(health.at("/components").has("breakerStore")).isTrue();

        dynalite.pause();
        try {
            HttpResponse<String> paused = a.health();
            assertThat(paused.statusCode()).isEqualTo(200);
            assertThat(json(paused).get("status").asText()).isEqualTo("UP");
        } finally {
            dynalite.resume();
        }
    }

    private static String state(DynamoDbClient table) {
        Map<String, AttributeValue> item = table.getItem(request -> request.tableName(TABLE)
                        .key(Map.of("breaker", AttributeValue.fromS("wholesaler")))
                        .consistentRead(true))
                .item();
        return item.get("state").s();
    }
}
