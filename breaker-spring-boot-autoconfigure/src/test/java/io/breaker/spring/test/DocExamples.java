package io.breaker.spring.test;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The examples of a document of the repository ({@code docs/operations.md}), and how an answer is held
 * to one: the same fields in the same order, the same values, except where a value depends on the run
 * (a time, a version), which only has to be of the same kind. Where the example leaves something out,
 * it says so as the documents do: a key {@code "..."} (the fields shown come in this order among
 * others), a last element {@code "..."} (the elements shown come first) or a text ending in
 * {@code ...} (the answer's text starts with it).
 */
public final class DocExamples {

    /** Fields whose values are times: each must be an ISO-8601 instant, in the example as in the answer. */
    private static final Set<String> TIMES = Set.of("stateSince", "openedAt", "nextProbeAt", "at");

    private static final String LEFT_OUT = "...";

    private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z");

    private final String text;

    private DocExamples(String text) {
        this.text = text;
    }

    /** The document at {@code path} from the repository's root (found above the working directory). */
    public static DocExamples of(String path) throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve(path)) || !Files.exists(dir.resolve("breaker-core"))) {
            dir = dir.getParent();
            assertThat(dir)
                    .as("the repository's root, above the working directory")
                    .isNotNull();
        }
        return new DocExamples(Files.readString(dir.resolve(path)));
    }

    /** The document's text. */
    public String text() {
        return text;
    }

    /** The first block fenced as {@code language} after {@code marker}. */
    public String block(String marker, String language) {
        int at = text.indexOf(marker);
        assertThat(at).as("the document's '%s'", marker).isNotNegative();
        Matcher block = Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL)
                .matcher(text);
        assertThat(block.find(at)).as("a %s block after '%s'", language, marker).isTrue();
        return block.group(1);
    }

    /**
     * Holds {@code answer} to the example {@code shown}: the fields shown, in the order shown, with the
     * values shown; times and the fields named in {@code runSpecific} only of the same kind.
     */
    public static void assertLike(JsonNode shown, JsonNode answer, Set<String> runSpecific) {
        assertLike(shown, answer, runSpecific, true);
    }

    /**
     * As {@link #assertLike(JsonNode, JsonNode, Set)}, the order of fields checked only when {@code ordered}:
     * for an answer that Spring Boot writes, whose order differs between the lines.
     */
    public static void assertLike(JsonNode shown, JsonNode answer, Set<String> runSpecific, boolean ordered) {
        try {
            assertLike("", shown, answer, runSpecific, ordered);
        } catch (AssertionError drift) {
            throw new AssertionError("the example differs from the answer\n" + answer.toPrettyString(), drift);
        }
    }

    private static void assertLike(
            String path, JsonNode shown, JsonNode answer, Set<String> runSpecific, boolean ordered) {
        assertThat(answer)
                .as("%s in the answer", path.isEmpty() ? "the answer" : path)
                .isNotNull();
        if (shown.isObject()) {
            List<String> shownFields = fields(shown);
            boolean cut = shownFields.remove(LEFT_OUT);
            if (cut) {
                if (!shownFields.isEmpty()) {
                    assertThat(fields(answer)).as("fields of %s", path).containsSubsequence(shownFields);
                }
            } else if (ordered) {
                assertThat(fields(answer)).as("fields of %s", path).containsExactlyElementsOf(shownFields);
            } else {
                assertThat(fields(answer)).as("fields of %s", path).containsExactlyInAnyOrderElementsOf(shownFields);
            }
            for (String field : shownFields) {
                String at = path.isEmpty() ? field : path + "." + field;
                if (TIMES.contains(field)) {
                    assertThat(Instant.parse(shown.get(field).asText())).as(at).isNotNull();
                    assertThat(Instant.parse(answer.get(field).asText())).as(at).isNotNull();
                } else if (runSpecific.contains(field)) {
                    assertThat(answer.get(field).getNodeType())
                            .as(at)
                            .isEqualTo(shown.get(field).getNodeType());
                } else {
                    assertLike(at, shown.get(field), answer.get(field), runSpecific, ordered);
                }
            }
        } else if (shown.isArray()) {
            int shownSize = shown.size();
            boolean cut =
                    shownSize > 0 && LEFT_OUT.equals(shown.get(shownSize - 1).asText());
            if (cut) {
                shownSize--;
                assertThat(answer.size()).as("elements of %s", path).isGreaterThanOrEqualTo(shownSize);
            } else {
                assertThat(answer.size()).as("elements of %s", path).isEqualTo(shownSize);
            }
            for (int i = 0; i < shownSize; i++) {
                assertLike(path + "[" + i + "]", shown.get(i), answer.get(i), runSpecific, ordered);
            }
        } else if (shown.isTextual()
                && shown.asText().endsWith(LEFT_OUT)
                && shown.asText().length() > 3) {
            String kept = shown.asText().substring(0, shown.asText().length() - LEFT_OUT.length());
            assertThat(answer.asText()).as(path).startsWith(kept);
        } else {
            assertThat(answer).as(path).isEqualTo(shown);
        }
    }

    /**
     * A line of an example of text ({@code data: {"name":"wholesaler",...}}) as a pattern a line of an
     * answer must match: {@code ...} stands for anything, an ISO-8601 instant for any instant.
     */
    public static Pattern linePattern(String shownLine) {
        StringBuilder pattern = new StringBuilder();
        String[] parts = shownLine.split(Pattern.quote(LEFT_OUT), -1);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                pattern.append(".*");
            }
            Matcher instant = INSTANT.matcher(parts[i]);
            int from = 0;
            while (instant.find()) {
                pattern.append(Pattern.quote(parts[i].substring(from, instant.start())))
                        .append(INSTANT.pattern());
                from = instant.end();
            }
            pattern.append(Pattern.quote(parts[i].substring(from)));
        }
        return Pattern.compile(pattern.toString());
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
