package io.breaker.sample;

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
import java.util.stream.Stream;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real {@code redis-server} for a test class, on a free port, in a temporary directory, with
 * persistence off (the standalone part of breaker-redis's test fixture of the same name).
 *
 * <p>Where {@code redis-server} is not installed the tests are skipped with a message saying how to
 * install it; with {@code CI=true} a missing {@code redis-server} fails them instead.
 * {@code REDIS_SERVER} may point at the binary.
 */
final class RedisServer implements BeforeAllCallback, AfterAllCallback {

    private static final String INSTALL = "redis-server is not installed: install it with "
            + "'sudo apt-get install redis-server' (Debian/Ubuntu) or 'brew install redis' (macOS), "
            + "or point REDIS_SERVER at the binary";

    private Path directory;
    private int port;
    private Process process;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Path binary = locate();
        if (binary == null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(INSTALL + " (CI=true: these tests must run on CI)");
            }
            String message = INSTALL + "; skipping " + context.getDisplayName() + ", which needs a real Redis";
            System.err.println("[sample-app] " + message); // visible even where skipped classes are not listed
            Assumptions.abort(message);
        }
        directory = Files.createTempDirectory("sample-app-redis");
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", directory.toString())
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
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (process != null) {
            process.destroyForcibly().waitFor();
        }
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    /** The port the server listens on. */
    int port() {
        return port;
    }

    private boolean answersPing() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int read = in.read(reply);
            return read > 0 && new String(reply, 0, read, StandardCharsets.UTF_8).startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static Path locate() {
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
}
