package io.breaker.observability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a Prometheus rules file as a {@code PrometheusRule} of the Prometheus Operator
 * ({@code monitoring.coreos.com/v1}): the operator's {@code spec.groups} has the rules file's
 * {@code groups} format, so the groups are copied line by line, indented one level under {@code spec}.
 * Lines before {@code groups:} (the file's own comments) are left out. Run by the build, so that the
 * rules exist in one place.
 */
public final class PrometheusRuleGenerator {

    /** The {@code metadata.name} of the generated resource. */
    static final String RESOURCE_NAME = "breaker-alerts";

    private PrometheusRuleGenerator() {}

    /** Arguments: the rules file, then the file to write. */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("expected 2 arguments (rules file, output file), got " + args.length);
        }
        Path rules = Path.of(args[0]);
        Path output = Path.of(args[1]);
        // Named as the jar holds it: the rules sit in prometheus/, the resource in kubernetes/.
        String resource = toPrometheusRule(
                Files.readString(rules, StandardCharsets.UTF_8),
                "breaker-observability/prometheus/" + rules.getFileName());
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, resource, StandardCharsets.UTF_8);
    }

    /** The {@code PrometheusRule} holding the groups of {@code rules}, read from {@code source}. */
    static String toPrometheusRule(String rules, String source) {
        List<String> lines = rules.lines().toList();
        int groups = lines.indexOf("groups:");
        if (groups < 0) {
            throw new IllegalArgumentException(source + " has no top-level 'groups:' line");
        }
        StringBuilder out = new StringBuilder()
                .append("# Generated from the rules file ")
                .append(source)
                .append(" when the jar is built: edit that file, not this one.\n")
                .append("apiVersion: monitoring.coreos.com/v1\n")
                .append("kind: PrometheusRule\n")
                .append("metadata:\n")
                .append("  name: ")
                .append(RESOURCE_NAME)
                .append('\n')
                .append("  labels:\n")
                .append("    app.kubernetes.io/name: breaker\n")
                .append("spec:\n")
                .append("  groups:\n");
        for (String line : lines.subList(groups + 1, lines.size())) {
            out.append(line.isBlank() ? "" : "  " + line).append('\n');
        }
        return out.toString();
    }
}
