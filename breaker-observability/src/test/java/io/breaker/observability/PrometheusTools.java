package io.breaker.observability;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Finds Debian's {@code prometheus} and {@code promtool} ({@code PROMETHEUS} and {@code PROMTOOL} may
 * point at them), and reads the shipped files from the class path. Where a binary is missing the test
 * is skipped with a message saying how to install it; with {@code CI=true} it fails instead.
 */
final class PrometheusTools {

    static final String INSTALL = "is not installed: install it with 'sudo apt-get install prometheus' "
            + "(Debian/Ubuntu; it brings prometheus and promtool) or 'brew install prometheus' (macOS), "
            + "or point PROMETHEUS and PROMTOOL at the binaries";

    static final String RULES = "breaker-observability/prometheus/breaker-alerts.yml";
    static final String RULE_RESOURCE = "breaker-observability/kubernetes/breaker-prometheusrule.yaml";
    static final String DASHBOARD = "breaker-observability/grafana/breaker-dashboard.json";

    private PrometheusTools() {}

    /** The binary, or the test is skipped (failed under {@code CI=true}). */
    static Path require(String binary) {
        String fromEnvironment = System.getenv(binary.toUpperCase(java.util.Locale.ROOT));
        List<Path> candidates = new java.util.ArrayList<>();
        if (fromEnvironment != null) {
            candidates.add(Path.of(fromEnvironment));
        }
        for (String dir : Objects.requireNonNullElse(System.getenv("PATH"), "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, binary));
            }
        }
        candidates.add(Path.of("/usr/bin", binary));
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        String message = binary + " " + INSTALL;
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail(message + " (CI=true: these tests must run on CI)");
        }
        System.err.println("[breaker-observability] " + message + "; skipping"); // visible where skips are not listed
        Assumptions.abort(message);
        throw new AssertionError("unreachable");
    }

    /** Runs a command to its end (at most 60 s) and returns its exit code and combined output. */
    static Result run(Path directory, String... command) {
        try {
            Process process = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, output + "\n(killed after 60 s)");
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A shipped file's text, from the class path (the files as the jar carries them). */
    static String resource(String path) {
        try (InputStream in = PrometheusTools.class.getClassLoader().getResourceAsStream(path)) {
            Assertions.assertNotNull(in, path + " is not on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A test file of this module's src/test/promtool. */
    static String promtoolTestFile(String name) {
        try {
            return Files.readString(Path.of("src/test/promtool", name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Result(int exitCode, String output) {}
}
