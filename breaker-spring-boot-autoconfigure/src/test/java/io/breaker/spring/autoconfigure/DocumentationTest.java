package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.Setting;
import io.breaker.SlidingWindowType;
import io.breaker.spring.config.PropertyValues;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and docs/ describe each property the starter reads exactly once, and each breaker
 * setting as its definition says: a setting or key added in code without its row fails here.
 */
class DocumentationTest {

    private static final Path ROOT = Path.of("..");

    /** A top-level class of ours by its qualified name, as an import or in prose: up to its first capital. */
    private static final Pattern OUR_CLASS = Pattern.compile("\\bio\\.breaker(\\.[a-z][a-z0-9_]*)*\\.[A-Z]\\w*");

    @Test
    void everySettingHasOneRowThatSaysWhatItsDefinitionSays() throws IOException {
        List<String> rows = rows();
        for (Setting<?> setting : BreakerConfig.settings()) {
            String key = key(setting);
            assertThat(rows.stream().filter(row -> row.startsWith("| `" + key + "` |")))
                    .as("the row of %s, as the definition renders it", key)
                    .containsExactly(row(setting));
        }
    }

    @Test
    void everyKeyTheStarterReadsIsDocumentedOnce() throws IOException {
        List<String> rows = rows();
        for (String pattern : DeclaredKeys.load(getClass().getClassLoader()).patterns()) {
            String documented = pattern.replace("[*]", "")
                    .replaceFirst("^breakers\\.instances\\.\\*\\..*$", "breakers.instances.<name>.<setting>")
                    .replaceFirst("^breakers\\.faults\\.\\*\\.", "breakers.faults.<name>.");
            assertThat(rows.stream().filter(row -> row.startsWith("| `" + documented + "` |")))
                    .as("rows documenting %s", pattern)
                    .hasSize(1);
        }
    }

    @Test
    void everyClassOfOursTheDocsNameExists() throws IOException {
        List<Path> sourceRoots;
        try (Stream<Path> roots = Files.walk(ROOT, 5)) {
            // <module>/src/<set>/java: main, test and test-boot4
            sourceRoots = roots.filter(path -> path.getNameCount() >= 3
                            && path.getName(path.getNameCount() - 3).toString().equals("src")
                            && path.getFileName().toString().equals("java"))
                    .filter(path -> !path.toString().contains("target"))
                    .toList();
        }
        List<String> missing = new ArrayList<>();
        int named = 0;
        for (Path file : markdownFiles()) {
            Matcher name = OUR_CLASS.matcher(Files.readString(file));
            while (name.find()) {
                named++;
                String source = name.group().replace('.', '/') + ".java";
                if (sourceRoots.stream().noneMatch(root -> Files.exists(root.resolve(source)))) {
                    missing.add(file.getFileName() + ": " + name.group());
                }
            }
        }
        assertThat(named).as("class names of ours in the docs").isGreaterThan(20);
        assertThat(missing)
                .as("named in the docs (imports, fully qualified names), not in any module")
                .isEmpty();
    }

    /** The row of docs/configuration.md's property table for a setting. */
    static String row(Setting<?> setting) {
        return "| `" + key(setting) + "` | " + type(setting) + " | " + defaultValue(setting) + " | "
                + PropertyValues.inPropertyTerms(setting.allowed()) + " | " + setting.description() + " |";
    }

    /** The key a setting's row documents: in breakers.defaults, or a fault-* setting in a breaker's faults section. */
    private static String key(Setting<?> setting) {
        String property = PropertyValues.breakerProperty("<name>", setting.propertyName());
        return property.startsWith("breakers.faults.") ? property : "breakers.defaults." + setting.propertyName();
    }

    private static String type(Setting<?> setting) {
        if (setting.type() == SlidingWindowType.class) {
            return "enum";
        }
        if (setting.type() == Integer.class) {
            return "whole number";
        }
        if (setting.type() == Float.class) {
            return "number";
        }
        if (setting.type() == Duration.class) {
            return "duration";
        }
        if (setting.type() == Class.class) {
            return "class name";
        }
        return "list of class names";
    }

    private static String defaultValue(Setting<?> setting) {
        Object value = setting.defaultValue();
        if (value == null) {
            return "unset";
        }
        if (value instanceof List<?> list && list.isEmpty()) {
            return "empty";
        }
        return "`" + PropertyValues.of(value) + "`";
    }

    /** README.md and docs/*.md. */
    private static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    /** Every table row of README.md and docs/*.md. */
    private static List<String> rows() throws IOException {
        List<String> rows = new ArrayList<>();
        for (Path file : markdownFiles()) {
            Files.readAllLines(file).stream()
                    .filter(line -> line.startsWith("| `breakers."))
                    .forEach(rows::add);
        }
        return rows;
    }

    /** Prints the rows to paste into docs/configuration.md after a definition changed. */
    public static void main(String[] args) {
        BreakerConfig.settings().forEach(setting -> System.out.println(row(setting)));
    }
}
