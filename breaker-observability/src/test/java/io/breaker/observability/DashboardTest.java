package io.breaker.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's structure, without Prometheus: every selector is narrowed by the dashboard's
 * variables, every panel is described and uses the chosen data source, and no two panels overlap.
 * {@link DashboardAndAlertsEndToEndTest} runs the queries themselves.
 */
class DashboardTest {

    private static final Pattern SELECTOR = Pattern.compile("(breaker_\\w+)\\{([^}]*)}");

    private final JsonNode dashboard;

    DashboardTest() throws IOException {
        dashboard = new ObjectMapper().readTree(PrometheusTools.resource(PrometheusTools.DASHBOARD));
    }

    @Test
    void everySelectorIsNarrowedByTheApplicationTheInstanceAndForABreakerMetricTheBreaker() {
        List<String> selectors = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                Matcher matcher = SELECTOR.matcher(target.path("expr").asText());
                while (matcher.find()) {
                    selectors.add(matcher.group());
                    assertThat(matcher.group(2))
                            .as(matcher.group())
                            .contains("job=~\"$job\"", "instance=~\"$instance\"");
                    if (!matcher.group(1).startsWith("breaker_store_")) {
                        assertThat(matcher.group(2)).as(matcher.group()).contains("name=~\"$name\"");
                    }
                }
            }
        }
        assertThat(selectors).hasSizeGreaterThanOrEqualTo(15);
    }

    @Test
    void everyPanelIsDescribedAndReadsTheChosenDataSource() {
        assertThat(dashboard.path("uid").asText()).isEqualTo("breaker-circuit-breakers");
        assertThat(dashboard.path("templating").path("list"))
                .extracting(variable -> variable.path("name").asText())
                .containsExactly("datasource", "job", "instance", "name");
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            assertThat(panel.path("description").asText())
                    .as(panel.path("title").asText())
                    .isNotBlank();
            assertThat(panel.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
            assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty();
        }
    }

    @Test
    void noTwoPanelsOverlap() {
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            JsonNode at = panel.path("gridPos");
            int[] box = {
                at.path("x").asInt(),
                at.path("y").asInt(),
                at.path("w").asInt(),
                at.path("h").asInt()
            };
            assertThat(box[0] + box[2]).as(panel.path("title").asText()).isLessThanOrEqualTo(24);
            for (int[] other : boxes) {
                boolean apart = box[0] + box[2] <= other[0]
                        || other[0] + other[2] <= box[0]
                        || box[1] + box[3] <= other[1]
                        || other[1] + other[3] <= box[1];
                assertThat(apart)
                        .as(panel.path("title").asText() + " overlaps another panel")
                        .isTrue();
            }
            boxes.add(box);
        }
    }
}
