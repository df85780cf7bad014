package io.breaker.redis;

import io.breaker.spring.autoconfigure.DeclaredKeys;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every key this module declares is documented once, in a table row of the README or docs/. */
class StoreDocumentationTest {

    @Test
    void everyStoreKeyIsDocumentedOnce() throws IOException {
        List<String> rows = rows();
        List<String> storeKeys = DeclaredKeys.load(getClass().getClassLoader()).patterns().stream()
                .filter(pattern -> pattern.startsWith("breakers.store.") || pattern.endsWith(".store.type"))
                .toList();
        assertThat(storeKeys)
                .contains("breakers.store.type", "breakers.store.outage-after", "breakers.instances.*.store.type");
        for (String key : storeKeys) {
            String documented = key.replace(".*.", ".<name>.");
            assertThat(rows.stream().filter(row -> row.startsWith("| `" + documented + "` |")))
                    .as("rows documenting %s", key)
                    .hasSize(1);
        }
    }

    private static List<String> rows() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("../README.md")));
        try (Stream<Path> docs = Files.list(Path.of("../docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<String> rows = new ArrayList<>();
        for (Path file : files) {
            Files.readAllLines(file).stream()
                    .filter(line -> line.startsWith("| `breakers."))
                    .forEach(rows::add);
        }
        return rows;
    }
}
