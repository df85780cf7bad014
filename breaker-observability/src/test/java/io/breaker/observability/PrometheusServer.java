package io.breaker.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code prometheus} on a free port with its data in a temporary directory, scraping one target
 * every second and evaluating the given rules every second; stopped by {@link #close()}.
 */
final class PrometheusServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final URI base;

    private PrometheusServer(Process process, Path log, URI base) {
        this.process = process;
        this.log = log;
        this.base = base;
    }

    /** Starts Prometheus scraping {@code target} (host:port) at {@code metricsPath} as job {@code job}. */
    static PrometheusServer start(
            Path binary, Path directory, String job, String target, String metricsPath, String rules)
            throws IOException, InterruptedException {
        Files.writeString(directory.resolve("rules.yml"), rules);
        Files.writeString(directory.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                rule_files:
                  - rules.yml
                scrape_configs:
                  - job_name: %s
                    metrics_path: %s
                    static_configs:
                      - targets: ['%s']
                """.formatted(job, metricsPath, target));
        int port = freePort();
        Path log = directory.resolve("prometheus.log");
        Process process = new ProcessBuilder(
                        binary.toString(),
                        "--config.file=" + directory.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + directory.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        PrometheusServer server = new PrometheusServer(process, log, URI.create("http://127.0.0.1:" + port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!server.ready()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                server.close();
                throw new IllegalStateException("prometheus did not start:\n" + server.log());
            }
            Thread.sleep(100);
        }
        return server;
    }

    private boolean ready() {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(base.resolve("/-/ready"))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code GET /api/v1/query?query=...}: the whole answer, whatever its status. */
    JsonNode query(String promql) {
        return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    /** {@code GET /api/v1/alerts}: the alerts pending or firing now. */
    JsonNode alerts() {
        return get("/api/v1/alerts");
    }

    /** {@code GET /api/v1/label/<label>/values?match[]=<selector>}. */
    JsonNode labelValues(String label, String selector) {
        return get("/api/v1/label/" + label + "/values?match[]=" + URLEncoder.encode(selector, StandardCharsets.UTF_8));
    }

    private JsonNode get(String pathAndQuery) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("prometheus did not answer " + pathAndQuery + ":\n" + log(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What Prometheus logged so far, for failure messages. */
    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
