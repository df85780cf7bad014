package io.breaker.dynamodb;

import io.breaker.spring.autoconfigure.DeclaredKeys;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every key of this store alone is documented once, in a table row of docs/dynamodb.md. */
class DynamoDocumentationTest {

    @Test
    void everyDynamoDbKeyIsDocumentedOnce() throws IOException {
        List<String> rows = Files.readAllLines(Path.of("../docs/dynamodb.md")).stream()
                .filter(line -> line.startsWith("| `breakers."))
                .toList();
        List<String> keys = DeclaredKeys.load(getClass().getClassLoader()).patterns().stream()
                .filter(pattern -> pattern.startsWith("breakers.store.dynamodb."))
                .toList();
        assertThat(keys)
                .containsExactlyInAnyOrder(
                        "breakers.store.dynamodb.table",
                        "breakers.store.dynamodb.item-expiry",
                        "breakers.store.dynamodb.endpoint");
        for (String key : keys) {
            assertThat(rows.stream().filter(row -> row.startsWith("| `" + key + "` |")))
                    .as("rows documenting %s", key)
                    .hasSize(1);
        }
        assertThat(rows)
                .as("keys shared with the Redis store are documented in redis.md only")
                .hasSize(keys.size());
    }
}
