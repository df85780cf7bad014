package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/operations.md's examples of {@code POST .../config} and {@code DELETE .../config} are this
 * sample's answers: the request of the POST's curl line, sent to the sample, answers with every field
 * the example shows (the example's {@code version} is that of a freshly started sample), in the order
 * shown, and logs the WARN line shown; the DELETE that follows answers as its example shows.
 */
@ExtendWith(OutputCaptureExtension.class)
class OperationsDocExamplesTest extends BookshopHttpTest {

    private static final Path OPERATIONS = Path.of("").toAbsolutePath().resolve("../docs/operations.md");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG = "/actuator/breakers/wholesaler/config";

    @Test
    void theRuntimeSettingsExampleIsWhatTheSampleAnswersAndLogs(CapturedOutput output) throws IOException {
        String section = section(Files.readString(OPERATIONS), "### Settings at runtime");
        Matcher curlBody = Pattern.compile("-d '(\\{.*?})'").matcher(block(section, "bash"));
        assertThat(curlBody.find()).as("the curl example's body").isTrue();
        JsonNode shown = JSON.readTree(block(section, "json"));
        Matcher logLine =
                Pattern.compile("WARN \\.\\.\\. io\\.breaker\\.operator : (.*)").matcher(section);
        assertThat(logLine.find()).as("the WARN line example").isTrue();

        long versionBefore = json(get(CONFIG)).get("version").asLong();
        HttpResponse<String> response = post(CONFIG, curlBody.group(1), OPERATOR, OPERATOR_PASSWORD);
        HttpResponse<String> deleted;
        try {
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode answer = json(response);
            assertAnswerIsExample(answer, shown, versionBefore);
            String shownLine = logLine.group(1).replace("version=1 ", "version=" + answer.get("version") + " ");
            assertThat(output.getOut()).contains("io.breaker.operator").contains(": " + shownLine);
        } finally {
            deleted = deleteAsOperator(CONFIG);
            assertThat(deleted.statusCode()).isEqualTo(200);
        }
        JsonNode shownDelete = JSON.readTree(block(section(section, "A `DELETE` answers"), "json"));
        assertAnswerIsExample(json(deleted), shownDelete, versionBefore);
    }

    /**
     * Every field {@code shown} has, in the order shown, with the value shown; of the settings, those
     * shown, in the order shown; {@code version} counted from {@code versionBefore}, as from start-up.
     */
    private static void assertAnswerIsExample(JsonNode answer, JsonNode shown, long versionBefore) {
        assertThat(answer.get("version").asLong() - versionBefore)
                .as("version, counted from start-up\n%s", answer.toPrettyString())
                .isEqualTo(shown.get("version").asLong());
        List<String> shownFields = new ArrayList<>();
        shown.fieldNames().forEachRemaining(shownFields::add);
        List<String> answeredFields = new ArrayList<>();
        answer.fieldNames().forEachRemaining(answeredFields::add);
        assertThat(answeredFields).as(answer.toPrettyString()).containsExactlyElementsOf(shownFields);
        List<String> shownSettings = new ArrayList<>();
        shown.fieldNames().forEachRemaining(field -> {
            if (field.equals("settings")) {
                shown.get(field).fieldNames().forEachRemaining(shownSettings::add);
            } else if (!field.equals("version")) {
                assertThat(answer.get(field)).as(field).isEqualTo(shown.get(field));
            }
        });
        shownSettings.remove("...");
        List<String> answeredSettings = new ArrayList<>();
        answer.get("settings").fieldNames().forEachRemaining(answeredSettings::add);
        assertThat(answeredSettings).as("the settings, in order").containsSubsequence(shownSettings);
        for (String setting : shownSettings) {
            assertThat(answer.get("settings").get(setting))
                    .as(setting)
                    .isEqualTo(shown.get("settings").get(setting));
        }
    }

    /** From the heading (or the paragraph that starts so) to the next heading of the same or a higher level. */
    private static String section(String markdown, String heading) {
        int start = markdown.indexOf("\n" + heading);
        assertThat(start).as(heading).isNotNegative();
        int end = markdown.indexOf("\n### ", start + 1);
        return markdown.substring(start, end < 0 ? markdown.length() : end);
    }

    /** The first fenced block of this language. */
    private static String block(String markdown, String language) {
        Matcher block = Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL)
                .matcher(markdown);
        assertThat(block.find()).as("a %s block", language).isTrue();
        return block.group(1);
    }
}
