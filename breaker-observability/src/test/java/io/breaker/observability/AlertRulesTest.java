package io.breaker.observability;

import io.breaker.observability.PrometheusTools.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped rules pass {@code promtool check rules} and the unit tests of src/test/promtool (each
 * alert fires when it should and not when it should not), and the generated {@code PrometheusRule}
 * holds exactly the same groups.
 */
class AlertRulesTest {

    @TempDir
    Path directory;

    @Test
    void theRulesAreValidAndPassTheirUnitTests() throws IOException {
        Path promtool = PrometheusTools.require("promtool");
        Files.writeString(directory.resolve("breaker-alerts.yml"), PrometheusTools.resource(PrometheusTools.RULES));
        Files.writeString(
                directory.resolve("breaker-alerts-test.yml"),
                PrometheusTools.promtoolTestFile("breaker-alerts-test.yml"));

        Result check = PrometheusTools.run(directory, promtool.toString(), "check", "rules", "breaker-alerts.yml");
        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 7 rules found");

        Result test = PrometheusTools.run(directory, promtool.toString(), "test", "rules", "breaker-alerts-test.yml");
        assertThat(test.exitCode()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
    }

    @Test
    void everyAlertHasAUnitTestASeverityASummaryAndADescription() {
        String tests = PrometheusTools.promtoolTestFile("breaker-alerts-test.yml");
        assertThat(alerts(PrometheusTools.resource(PrometheusTools.RULES)))
                .hasSize(7)
                .allSatisfy(rule -> {
                    assertThat(tests).as("a test of " + rule.get("alert")).contains("alertname: " + rule.get("alert"));
                    assertThat(map(rule.get("labels"))).containsKey("severity");
                    assertThat(map(rule.get("annotations"))).containsKeys("summary", "description");
                    // Per breaker and instance; the fleet's alert names the breaker, acting alone the instance.
                    assertThat((String) map(rule.get("annotations")).get("description"))
                            .contains("{{ $labels.job }}")
                            .containsAnyOf(
                                    "{{ $labels.name }} of {{ $labels.job }} on {{ $labels.instance }}",
                                    "breaker {{ $labels.name }}",
                                    "on {{ $labels.instance }}");
                });
    }

    @Test
    void thePrometheusRuleHoldsTheSameGroups() throws IOException {
        Map<String, Object> rules = new Yaml().load(PrometheusTools.resource(PrometheusTools.RULES));
        Map<String, Object> resource = new Yaml().load(PrometheusTools.resource(PrometheusTools.RULE_RESOURCE));

        assertThat(resource)
                .containsEntry("apiVersion", "monitoring.coreos.com/v1")
                .containsEntry("kind", "PrometheusRule");
        assertThat(map(resource.get("metadata"))).containsEntry("name", "breaker-alerts");
        assertThat(PrometheusTools.resource(PrometheusTools.RULE_RESOURCE))
                .startsWith("# Generated from the rules file breaker-observability/prometheus/breaker-alerts.yml ");
        assertThat(map(resource.get("spec")).get("groups")).isEqualTo(rules.get("groups"));

        // And the operator's groups, written out as a rules file, pass promtool too.
        Path promtool = PrometheusTools.require("promtool");
        Files.writeString(
                directory.resolve("from-resource.yml"),
                new Yaml().dump(Map.of("groups", map(resource.get("spec")).get("groups"))),
                StandardCharsets.UTF_8);
        Result check = PrometheusTools.run(directory, promtool.toString(), "check", "rules", "from-resource.yml");
        assertThat(check.exitCode()).as(check.output()).isZero();
    }

    @Test
    void theGeneratorRefusesAFileWithoutGroups() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> PrometheusRuleGenerator.toPrometheusRule("rules: []\n", "x.yml"))
                .withMessage("x.yml has no top-level 'groups:' line");
    }

    static List<Map<String, Object>> alerts(String rulesFile) {
        Map<String, Object> rules = new Yaml().load(rulesFile);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> groups = (List<Map<String, Object>>) rules.get("groups");
        return groups.stream()
                .flatMap(group -> {
                    @SuppressWarnings("unchecked")
                    List<Map<String, Object>> list = (List<Map<String, Object>>) group.get("rules");
                    return list.stream();
                })
                .filter(rule -> rule.containsKey("alert"))
                .toList();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
