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
 * The packages of this module depend on each other one way: the auto-configuration may use the
 * actuator and {@code config}; the actuator uses {@code config} but nothing of the auto-configuration;
 * {@code config} uses neither. And no main source reads a property by its name: each one reaches its
 * setting through a line a compiler checks.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/io/breaker/spring");

    @Test
    void theActuatorUsesNothingOfTheAutoConfiguration() throws IOException {
        assertThat(uses("actuate", "io.breaker.spring.autoconfigure")).isEmpty();
    }

    @Test
    void configUsesNeitherTheAutoConfigurationNorTheActuator() throws IOException {
        assertThat(uses("config", "io.breaker.spring.autoconfigure")).isEmpty();
        assertThat(uses("config", "io.breaker.spring.actuate")).isEmpty();
    }

    @Test
    void noPropertyIsReadByItsName() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path file : sources(SOURCES)) {
            for (String line : code(file)) {
                if (line.contains("PropertyAccessorFactory")
                        || line.contains("BeanWrapper")
                        || line.contains("getPropertyValue(")) {
                    offenders.add(SOURCES.relativize(file) + ": " + line.trim());
                }
            }
        }
        assertThat(offenders).isEmpty();
    }

    /** The lines of code (comments left out) in {@code pkg} that name {@code used}, by file. */
    private static List<String> uses(String pkg, String used) throws IOException {
        List<Path> files = sources(SOURCES.resolve(pkg));
        assertThat(files).as("sources of " + pkg).isNotEmpty();
        List<String> offenders = new ArrayList<>();
        for (Path file : files) {
            for (String line : code(file)) {
                if (line.contains(used + ".")) {
                    offenders.add(SOURCES.relativize(file) + ": " + line.trim());
                }
            }
        }
        return offenders;
    }

    private static List<Path> sources(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(path -> path.toString().endsWith(".java"))
                    .sorted()
                    .toList();
        }
    }

    /** The file's lines that are not comments: Javadoc may name another package, code may not. */
    private static List<String> code(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .filter(line -> {
                    String trimmed = line.trim();
                    return !(trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//"));
                })
                .toList();
    }
}
