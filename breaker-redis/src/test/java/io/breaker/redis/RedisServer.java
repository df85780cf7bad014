package io.breaker.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} for a test class, on a free port, in a temporary directory, with
 * persistence off. It can be stopped, killed (SIGKILL), paused (SIGSTOP, to simulate a hang) and
 * resumed or restarted on the same port.
 *
 * <p>Where {@code redis-server} is not installed the tests are skipped with a message saying how to
 * install it; with {@code CI=true} a missing {@code redis-server} fails them instead.
 * {@code REDIS_SERVER} may point at the binary.
 */
public final class RedisServer implements BeforeAllCallback, AfterAllCallback {

    static final String INSTALL = "redis-server is not installed: install it with "
            + "'sudo apt-get install redis-server' (Debian/Ubuntu) or 'brew install redis' (macOS), "
            + "or point REDIS_SERVER at the binary";

    private final boolean cluster;
    private Path binary;
    private Path directory;
    private int port;
    private Process process;

    /** A standalone server. */
    public RedisServer() {
        this(false);
    }

    private RedisServer(boolean cluster) {
        this.cluster = cluster;
    }

    /** A one-node Redis Cluster owning every slot: multi-key scripts fail there unless their keys share a slot. */
    public static RedisServer cluster() {
        return new RedisServer(true);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        binary = locateBinary();
        if (binary == null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(INSTALL + " (CI=true: these tests must run on CI)");
            }
            String message = INSTALL + "; skipping " + context.getDisplayName() + ", which needs a real Redis";
            System.err.println("[breaker-redis] " + message); // visible even where skipped classes are not listed
            Assumptions.abort(message);
        }
        directory = Files.createTempDirectory("breaker-redis-test");
        port = freePort();
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (process != null) {
            resume();
            process.destroyForcibly().waitFor();
        }
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    /** The port the server listens on (the same after a restart). */
    public int port() {
        return port;
    }

    /** Starts the server (again) and waits until it answers PING. */
    public void start() throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                binary.toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                directory.toString()));
        if (cluster) {
            Files.deleteIfExists(directory.resolve("nodes.conf"));
            command.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"));
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile())
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!answersPing()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server did not start on port " + port + ": "
                        + Files.readString(directory.resolve("redis.log")));
            }
            Thread.sleep(20);
        }
        if (cluster) {
            String added = command("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
            if (!added.startsWith("+OK")) {
                throw new IllegalStateException("CLUSTER ADDSLOTSRANGE failed: " + added);
            }
            while (!command("CLUSTER", "INFO").contains("cluster_state:ok")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the one-node cluster did not become ready");
                }
                Thread.sleep(20);
            }
        }
    }

    /** Stops the server with SIGTERM and waits for it to exit. */
    public void stop() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    /** Kills the server with SIGKILL, as a crash would. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Freezes the server with SIGSTOP: connections stay open, nothing answers. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Thaws a paused server with SIGCONT. */
    public void resume() throws IOException, InterruptedException {
        if (process.isAlive()) {
            signal("CONT");
        }
    }

    /** Sends one command in Redis's inline protocol and returns the raw reply (tests read state with it). */
    public String command(String... words) throws IOException {
        return command(port, words);
    }

    /** Sends one command to the server on {@code port} on loopback, as {@link #command(String...)} does. */
    static String command(int port, String... words) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(2000);
            StringBuilder line = new StringBuilder();
            for (String word : words) {
                line.append('"').append(word.replace("\"", "\\\"")).append("\" ");
            }
            line.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(line.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            java.io.ByteArrayOutputStream reply = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) > 0) {
                reply.write(buffer, 0, read);
                if (complete(reply.toString(StandardCharsets.UTF_8))) {
                    break;
                }
            }
            return reply.toString(StandardCharsets.UTF_8);
        }
    }

    /** Whether a reply is whole: a bulk string ({@code $<length>}) once all its bytes are in, anything else at its first line. */
    private static boolean complete(String reply) {
        int lineEnd = reply.indexOf("\r\n");
        if (lineEnd < 0) {
            return false;
        }
        if (!reply.startsWith("$")) {
            return true;
        }
        int length = Integer.parseInt(reply.substring(1, lineEnd));
        return length < 0 || reply.getBytes(StandardCharsets.UTF_8).length >= lineEnd + 2 + length + 2;
    }

    private boolean answersPing() {
        try {
            return command(port, "PING").startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** The {@code redis-server} binary ({@code REDIS_SERVER}, or the first on the PATH), or {@code null}. */
    static Path locateBinary() {
        String explicit = System.getenv("REDIS_SERVER");
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit);
            return Files.isExecutable(path) ? path : null;
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String folder : path.split(File.pathSeparator)) {
            Path candidate = Path.of(folder, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
