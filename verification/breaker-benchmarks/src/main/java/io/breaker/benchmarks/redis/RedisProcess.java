package io.breaker.benchmarks.redis;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A private {@code redis-server} for one benchmark trial or program: a free port on 127.0.0.1, a
 * temporary directory, no persistence. Never the machine's own Redis. {@code REDIS_SERVER} may name
 * the binary; otherwise {@code /usr/bin/redis-server}, then the {@code PATH}.
 *
 * <p>It also reports what Redis executed, over connections of its own, so that the store's round
 * trips are counted by Redis, not by the code under test: {@link #monitor()} watches
 * {@code MONITOR}, which tells a client's commands from those a script runs inside Redis
 * ({@code INFO commandstats} would count both).
 */
final class RedisProcess implements AutoCloseable {

    private final Path directory;
    private final int port;
    private final Process process;
    /** Local ports of this object's own connections, left out of what {@link Monitor} counts. */
    private final Set<Integer> ownPorts = ConcurrentHashMap.newKeySet();

    private RedisProcess(Path directory, int port, Process process) {
        this.directory = directory;
        this.port = port;
        this.process = process;
    }

    /** Starts a server and waits (at most 10 s) until it answers PING. */
    static RedisProcess start() throws IOException, InterruptedException {
        Path binary = locate();
        Path directory = Files.createTempDirectory("breaker-bench-redis");
        int port = freePort();
        Process process = new ProcessBuilder(
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
                        directory.toString())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile())
                .start();
        RedisProcess redis = new RedisProcess(directory, port, process);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!redis.answersPing()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String log = Files.readString(directory.resolve("redis.log"));
                redis.close();
                throw new IllegalStateException(
                        "redis-server (" + binary + ") did not start on port " + port + ": " + log);
            }
            Thread.sleep(20);
        }
        return redis;
    }

    int port() {
        return port;
    }

    /**
     * Starts counting, from now on, the commands clients send to Redis (one per round trip, as nothing
     * here pipelines), by name, leaving out the commands scripts run inside Redis and this object's own.
     */
    Monitor monitor() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        ownPorts.add(socket.getLocalPort());
        socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        String ok = lines.readLine();
        if (!"+OK".equals(ok)) {
            socket.close();
            throw new IllegalStateException("MONITOR answered " + ok);
        }
        return new Monitor(socket, lines);
    }

    /** Commands seen by {@code MONITOR}; see {@link #monitor()}. */
    final class Monitor implements AutoCloseable {
        private final Socket socket;
        private final Map<String, Long> counts = new TreeMap<>();
        private final Thread reader;
        private String lastMarker = "";

        private Monitor(Socket socket, BufferedReader lines) {
            this.socket = socket;
            this.reader = new Thread(() -> read(lines), "redis-monitor");
            this.reader.setDaemon(true);
            this.reader.start();
        }

        /**
         * The commands clients sent since the last call, by name. Sends a marker (an {@code ECHO} on
         * a connection of this object's) and waits until {@code MONITOR} shows it: Redis reports
         * commands in the order it runs them, so everything it ran before the marker is counted.
         */
        Map<String, Long> drain() throws IOException, InterruptedException {
            String marker = "breaker-bench-" + System.nanoTime();
            command("ECHO", marker);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            synchronized (this) {
                while (!lastMarker.equals(marker)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("MONITOR did not show the marker within 10 s");
                    }
                    wait(100);
                }
                Map<String, Long> drained = new TreeMap<>(counts);
                counts.clear();
                return drained;
            }
        }

        private void read(BufferedReader lines) {
            try {
                String line;
                while ((line = lines.readLine()) != null) {
                    // +1700000000.123456 [0 127.0.0.1:51234] "evalsha" "..." ; [0 lua] for a script's own commands
                    int open = line.indexOf('[');
                    int close = line.indexOf(']', open);
                    if (open < 0 || close < 0) {
                        continue;
                    }
                    String source = line.substring(open + 1, close);
                    String client = source.substring(source.indexOf(' ') + 1);
                    int nameStart = line.indexOf('"', close) + 1;
                    String name = line.substring(nameStart, line.indexOf('"', nameStart))
                            .toLowerCase(java.util.Locale.ROOT);
                    synchronized (this) {
                        if (isOwn(client)) {
                            if (name.equals("echo")) {
                                int argStart = line.indexOf('"', line.indexOf('"', nameStart) + 1) + 1;
                                lastMarker = line.substring(argStart, line.indexOf('"', argStart));
                                notifyAll();
                            }
                        } else if (!client.equals("lua")) {
                            counts.merge(name, 1L, Long::sum);
                        }
                    }
                }
            } catch (IOException closed) {
                // close() ends the reader
            }
        }

        private boolean isOwn(String client) {
            int colon = client.lastIndexOf(':');
            return colon > 0 && ownPorts.contains(Integer.parseInt(client.substring(colon + 1)));
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Whether {@code key} exists. */
    boolean exists(String key) throws IOException {
        return command("EXISTS", key).startsWith(":1");
    }

    /** Stops the server and deletes its directory. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    /** One command in Redis's inline protocol on a fresh connection; the raw reply. */
    private String command(String... words) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            ownPorts.add(socket.getLocalPort());
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write((String.join(" ", words) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) > 0) {
                reply.write(buffer, 0, read);
                if (complete(reply.toByteArray())) {
                    break;
                }
            }
            return reply.toString(StandardCharsets.UTF_8);
        }
    }

    /** A bulk reply ({@code $<length>}) is whole once all its bytes are in; anything else at its first line. */
    private static boolean complete(byte[] reply) {
        String text = new String(reply, StandardCharsets.UTF_8);
        int lineEnd = text.indexOf("\r\n");
        if (lineEnd < 0) {
            return false;
        }
        if (!text.startsWith("$")) {
            return true;
        }
        int length = Integer.parseInt(text.substring(1, lineEnd));
        return length < 0 || reply.length >= lineEnd + 2 + length + 2;
    }

    private boolean answersPing() {
        try {
            return command("PING").startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static Path locate() {
        String explicit = System.getenv("REDIS_SERVER");
        List<Path> candidates = new java.util.ArrayList<>();
        if (explicit != null && !explicit.isBlank()) {
            candidates.add(Path.of(explicit));
        }
        candidates.add(Path.of("/usr/bin/redis-server"));
        String path = System.getenv("PATH");
        if (path != null) {
            for (String folder : path.split(File.pathSeparator)) {
                candidates.add(Path.of(folder, "redis-server"));
            }
        }
        return candidates.stream()
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "redis-server is not installed: install it ('apt-get install redis-server'"
                                + " or 'brew install redis') or point REDIS_SERVER at the binary"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
