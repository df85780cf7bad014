package io.breaker.spring.cloud.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gateways of {@link GatewayFleetInstance}, each in its own JVM started with the test's own class path,
 * all started at once and destroyed together. Each logs to {@code <directory>/gateway-<i>.log}.
 */
final class GatewayFleet implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"(\\w+)\"");
    /** The first measurement's value in the actuator's metrics answer. */
    private static final Pattern METER_VALUE = Pattern.compile("\"value\"\\s*:\\s*([0-9.eE+-]+)");

    private final Path directory;
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final List<URI> bases = new ArrayList<>();
    private final Thread killOnExit = new Thread(this::destroyAll, "gateway-fleet-kill");
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private GatewayFleet(Path directory) {
        this.directory = directory;
        // The test JVM ending abruptly must not leave gateways behind (each also exits when its stdin closes).
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Starts {@code count} gateways at once, each with the Spring Boot command-line arguments {@code args}
     * ({@code --name=value}), and waits until each answers.
     */
    static GatewayFleet start(int count, Path directory, List<String> args) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        GatewayFleet fleet = new GatewayFleet(directory);
        try {
            for (int i = 0; i < count; i++) {
                fleet.launch(i, args);
            }
            long deadline = System.nanoTime() + START_LIMIT.toNanos();
            for (int i = 0; i < count; i++) {
                fleet.awaitStarted(i, deadline);
            }
            return fleet;
        } catch (IOException | InterruptedException | RuntimeException failed) {
            fleet.close();
            throw failed;
        }
    }

    private void launch(int gateway, List<String> args) throws IOException {
        Path portFile = portFile(gateway);
        Files.deleteIfExists(portFile);
        Path log = directory.resolve("gateway-" + gateway + ".log");
        logs.add(log);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classPath(),
                GatewayFleetInstance.class.getName(),
                "--server.port=0",
                "--spring.main.banner-mode=off",
                "--fleet.port-file=" + portFile));
        command.addAll(args);
        processes.add(new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start()); // stdin stays a pipe: it closes when this JVM dies, and the gateway exits
    }

    /**
     * The test class path: Surefire runs tests from a manifest-only jar, so {@code java.class.path} is that
     * jar alone there, and it passes the real class path (after its exclusions) in
     * {@code surefire.test.class.path}; an IDE sets {@code java.class.path}.
     */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    private Path portFile(int gateway) {
        return directory.resolve("gateway-" + gateway + ".port");
    }

    private void awaitStarted(int gateway, long deadline) throws IOException, InterruptedException {
        Path portFile = portFile(gateway);
        while (!Files.exists(portFile)) {
            Process process = processes.get(gateway);
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "gateway " + gateway + " exited with " + process.exitValue() + ":\n" + tail(gateway));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "gateway " + gateway + " did not start within " + START_LIMIT + ":\n" + tail(gateway));
            }
            Thread.sleep(50);
        }
        bases.add(URI.create("http://127.0.0.1:" + Files.readString(portFile).trim()));
        while (true) {
            try {
                if (get(gateway, "/actuator/health").statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // the port is written once the server listens; it may not accept for a moment
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gateway " + gateway + " does not answer:\n" + tail(gateway));
            }
            Thread.sleep(50);
        }
    }

    int size() {
        return bases.size();
    }

    /** A GET of {@code path} on gateway {@code i}; the gateway not answering is an {@link UncheckedIOException}. */
    HttpResponse<String> get(int gateway, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(bases.get(gateway).resolve(path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The breaker's state as gateway {@code i}'s actuator shows it, or its HTTP status if it shows none. */
    String state(int gateway, String breaker) throws IOException, InterruptedException {
        HttpResponse<String> response = get(gateway, "/actuator/breakers/" + breaker);
        Matcher state = STATE.matcher(response.body());
        return state.find() ? state.group(1) : "HTTP " + response.statusCode();
    }

    /**
     * The fleet's {@code breaker.store.timeouts} so far, all gateways together: store operations whose
     * caller stopped waiting for the answer (0 for a gateway that has not registered the meter yet).
     */
    long storeTimeouts() throws IOException, InterruptedException {
        long sum = 0;
        for (int i = 0; i < size(); i++) {
            HttpResponse<String> response = get(i, "/actuator/metrics/breaker.store.timeouts");
            if (response.statusCode() == 404) {
                continue;
            }
            Matcher value = METER_VALUE.matcher(response.body());
            if (response.statusCode() != 200 || !value.find()) {
                throw new IllegalStateException(
                        "gateway " + i + " answered " + response.statusCode() + ": " + response.body());
            }
            sum += (long) Double.parseDouble(value.group(1));
        }
        return sum;
    }

    private String tail(int gateway) {
        try {
            List<String> lines = Files.readAllLines(logs.get(gateway));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void destroyAll() {
        processes.forEach(Process::destroy);
        for (Process process : processes) {
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run: nothing left to undo
        }
    }
}
