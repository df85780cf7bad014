package io.breaker.spring;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring modules log through one API, commons-logging (the one Spring itself uses, routed to
 * whatever the application configured): no SLF4J, no java.util.logging, no System.out in their
 * main sources.
 */
class OneLoggingApiTest {

    private static final List<String> MODULES = List.of(
            "breaker-spring-boot-autoconfigure",
            "breaker-boot3",
            "breaker-boot4",
            "breaker-redis",
            "breaker-spring-cloud");
    private static final List<String> OTHER_APIS =
            List.of("import org.slf4j.", "import java.util.logging.", "System.out.", "System.err.");

    @Test
    void theSpringModulesLogThroughCommonsLoggingOnly() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<String> offenders = new ArrayList<>();
        int files = 0;
        for (String module : MODULES) {
            Path sources = root.resolve(module).resolve("src/main/java");
            assertThat(sources).as("main sources of " + module).isDirectory();
            try (Stream<Path> walk = Files.walk(sources)) {
                for (Path file :
                        walk.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    String text = Files.readString(file);
                    for (String other : OTHER_APIS) {
                        if (text.contains(other)) {
                            offenders.add(root.relativize(file) + ": " + other);
                        }
                    }
                }
            }
        }
        assertThat(files).as("source files read").isGreaterThan(50);
        assertThat(offenders).as("logging outside commons-logging").isEmpty();
    }
}
