package io.breaker.test;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's "Testing your breakers" shows tested code: each of its Java and YAML examples is a
 * piece of a test or of a test resource of this module (white space aside).
 */
class ReadmeExamplesTest {

    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Pattern BLOCK = Pattern.compile("```(java|yaml)\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyExampleIsAPieceOfATestOrOfItsSettings() throws IOException {
        String readme = Files.readString(MODULE.resolve("../README.md"));
        int start = readme.indexOf("<!-- section:testing -->");
        int end = readme.indexOf("<!-- /section:testing -->");
        assertThat(start).as("the README's testing section").isNotNegative().isLessThan(end);
        String tests = squeezed(sources(MODULE.resolve("src/test/java"), ".java"));
        String resources = squeezed(sources(MODULE.resolve("src/test/resources"), ".yml"));

        List<String> examples = new ArrayList<>();
        Matcher block = BLOCK.matcher(readme.substring(start, end));
        while (block.find()) {
            String example = squeezed(block.group(2));
            examples.add(example);
            assertThat(block.group(1).equals("java") ? tests : resources)
                    .as("a test of breaker-test holding the README's example%n%s", block.group(2))
                    .contains(example);
        }
        assertThat(examples).hasSizeGreaterThanOrEqualTo(4);
    }

    private static String sources(Path root, String suffix) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(file -> file.toString().endsWith(suffix)).forEach(file -> {
                try {
                    all.append(Files.readString(file)).append('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return all.toString();
    }

    /** Without any white space: formatting may break lines where the README does not. */
    private static String squeezed(String text) {
        return text.replaceAll("\\s+", "");
    }
}
