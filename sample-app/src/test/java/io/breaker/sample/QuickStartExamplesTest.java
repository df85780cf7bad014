package io.breaker.sample;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
 * The README's "one curl at a time" shows what the sample answers: the answers of a healthy
 * wholesaler and those that are no outage (status, {@code X-Served-By}, body or message), and the
 * operator's force and release (the JSON shown), are this sample's answers to the same requests.
 */
class QuickStartExamplesTest extends BookshopHttpTest {

    private static final Path README = Path.of("").toAbsolutePath().resolve("../README.md");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern GET = Pattern.compile("^curl -i localhost:8080(\\S+)\\s+# (\\d{3})(.*)$");
    private static final Pattern SERVED_BY = Pattern.compile("X-Served-By: ([a-z-]+)");
    private static final Pattern BODY = Pattern.compile("(\\{.*})");
    private static final Pattern MESSAGE = Pattern.compile(": \"(.*)\"$");
    private static final Pattern AS_OPERATOR = Pattern.compile(
            "^curl -u operator:demo-operator -H 'Content-Type: application/json' -d '(.*)' localhost:8080(\\S+)$");

    @BeforeEach
    void freshBreakerAndHealthyWholesaler() {
        resetBreakerAndWholesaler();
    }

    @Test
    void theAnswersOfAHealthyWholesalerAndThoseThatAreNoOutageAreTheSamplesAnswers() throws IOException {
        List<String> blocks = bashBlocks();
        List<String> lines = new ArrayList<>(blocks.get(0).lines().toList());
        lines.addAll(blocks.get(1).lines().toList());

        assertThat(lines).hasSize(4);
        for (String line : lines) {
            Matcher example = GET.matcher(line);
            assertThat(example.matches()).as(line).isTrue();
            HttpResponse<String> answer = get(example.group(1));
            String shown = example.group(3);

            assertThat(answer.statusCode()).as(line).isEqualTo(Integer.parseInt(example.group(2)));
            Matcher servedBy = SERVED_BY.matcher(shown);
            if (servedBy.find()) {
                assertThat(servedBy(answer)).as(line).isEqualTo(servedBy.group(1));
            }
            Matcher body = BODY.matcher(shown);
            Matcher message = MESSAGE.matcher(shown);
            if (body.find()) {
                assertThat(json(answer)).as(line).isEqualTo(JSON.readTree(body.group(1)));
            } else {
                assertThat(message.find()).as("a body or a message in %s", line).isTrue();
                assertThat(json(answer).get("detail").asText()).as(line).isEqualTo(message.group(1));
            }
        }
    }

    @Test
    void theOperatorsForceAndReleaseAnswerAsShown() throws IOException {
        String block = bashBlocks().stream()
                .filter(text -> text.contains("-d '{\"state\":\"OPEN\"}'"))
                .findFirst()
                .orElseThrow();
        List<String> lines = block.lines().toList();
        int answered = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher write = AS_OPERATOR.matcher(lines.get(i));
            if (!write.matches()) {
                continue;
            }
            String shown = lines.get(i + 1);
            assertThat(shown).as("the answer shown after %s", lines.get(i)).startsWith("# {");
            HttpResponse<String> answer = post(write.group(2), write.group(1), OPERATOR, OPERATOR_PASSWORD);

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(json(answer)).as(lines.get(i)).isEqualTo(JSON.readTree(shown.substring(2)));
            answered++;
        }
        assertThat(answered).as("forced and released").isEqualTo(2);
    }

    private static List<String> bashBlocks() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("### The same story, one curl at a time");
        int end = readme.indexOf("### What to read in the sample");
        assertThat(start).isNotNegative().isLessThan(end);
        Matcher block = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL).matcher(readme.substring(start, end));
        List<String> blocks = new ArrayList<>();
        while (block.find()) {
            blocks.add(block.group(1));
        }
        return blocks;
    }
}
