package io.breaker.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A Redis Sentinel set-up for a test class, on loopback and free ports: one master, one replica and
 * three sentinels (quorum 2), all run by Debian's {@code redis-server} binary (a sentinel is
 * {@code redis-server <file> --sentinel}), persistence off. The master can be killed; the sentinels
 * then promote the replica ({@link #awaitFailover}).
 *
 * <p>Skipped with a message where {@code redis-server} is not installed, failed under {@code CI=true},
 * as {@link RedisServer} is.
 */
public final class RedisSentinel implements BeforeAllCallback, AfterAllCallback {

    /** The name the sentinels monitor the master under ({@code spring.data.redis.sentinel.master}). */
    public static final String MASTER = "breaker-master";

    private static final Duration DOWN_AFTER = Duration.ofMillis(1000);
    private static final Duration READY_WITHIN = Duration.ofSeconds(30);

    private final List<Process> processes = new ArrayList<>();
    private Path directory;
    private Path binary;
    private Process master;
    private int masterPort;
    private int replicaPort;
    private final int[] sentinelPorts = new int[3];

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        binary = RedisServer.locateBinary();
        if (binary == null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(RedisServer.INSTALL + " (CI=true: these tests must run on CI)");
            }
            Assumptions.abort(RedisServer.INSTALL + "; skipping " + context.getDisplayName());
        }
        directory = Files.createTempDirectory("breaker-redis-sentinel");
        masterPort = RedisServer.freePort();
        replicaPort = RedisServer.freePort();
        master = server("master", masterPort);
        server("replica", replicaPort, "--replicaof", "127.0.0.1", Integer.toString(masterPort));
        for (int i = 0; i < sentinelPorts.length; i++) {
            sentinelPorts[i] = RedisServer.freePort();
            Path conf = directory.resolve("sentinel-" + i + ".conf");
            Files.writeString(
                    conf,
                    String.join(
                            "\n",
                            "port " + sentinelPorts[i],
                            "bind 127.0.0.1",
                            "dir " + directory,
                            "sentinel monitor " + MASTER + " 127.0.0.1 " + masterPort + " 2",
                            "sentinel down-after-milliseconds " + MASTER + " " + DOWN_AFTER.toMillis(),
                            "sentinel failover-timeout " + MASTER + " 10000",
                            "sentinel parallel-syncs " + MASTER + " 1",
                            ""));
            start("sentinel-" + i, sentinelPorts[i], List.of(binary.toString(), conf.toString(), "--sentinel"));
        }
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        for (int port : sentinelPorts) {
            // Each sentinel knows the replica and the two other sentinels: a failover can be voted.
            while (!(command(port, "SENTINEL", "MASTER", MASTER).contains("num-slaves")
                    && field(command(port, "SENTINEL", "MASTER", MASTER), "num-slaves") >= 1
                    && field(command(port, "SENTINEL", "MASTER", MASTER), "num-other-sentinels") >= 2)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the sentinels did not see the replica and each other: "
                            + command(port, "SENTINEL", "MASTER", MASTER));
                }
                Thread.sleep(100);
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        for (Process process : processes) {
            process.destroyForcibly().waitFor();
        }
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    /** {@code spring.data.redis.sentinel.nodes}: the three sentinels. */
    public String nodes() {
        StringBuilder nodes = new StringBuilder();
        for (int port : sentinelPorts) {
            nodes.append(nodes.length() == 0 ? "" : ",").append("127.0.0.1:").append(port);
        }
        return nodes.toString();
    }

    /** The port of the master the sentinels name now. */
    public int masterPort() throws IOException {
        String reply = command(sentinelPorts[0], "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER);
        List<String> words = bulkStrings(reply);
        return Integer.parseInt(words.get(1));
    }

    /** The replica's port (the master after a failover). */
    public int replicaPort() {
        return replicaPort;
    }

    /** Kills the master with SIGKILL, as a crash would. */
    public void killMaster() throws InterruptedException {
        master.destroyForcibly();
        master.waitFor();
    }

    /** Waits until the sentinels name the replica as the master; returns how long that took. */
    public Duration awaitFailover(Duration within) throws IOException, InterruptedException {
        long start = System.nanoTime();
        while (masterPort() != replicaPort) {
            if (System.nanoTime() - start > within.toNanos()) {
                throw new IllegalStateException("no failover within " + within + ": the sentinels name port "
                        + masterPort() + "; " + command(sentinelPorts[0], "SENTINEL", "MASTER", MASTER));
            }
            Thread.sleep(50);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Sends one command to the server on {@code port} (see {@link RedisServer#command}). */
    public String command(int port, String... words) throws IOException {
        return RedisServer.command(port, words);
    }

    private Process server(String name, int port, String... more) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
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
        command.addAll(List.of(more));
        return start(name, port, command);
    }

    private Process start(String name, int port, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve(name + ".log").toFile())
                .start();
        processes.add(process);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!answersPing(port)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not start on port " + port + ": "
                        + Files.readString(directory.resolve(name + ".log")));
            }
            Thread.sleep(20);
        }
        return process;
    }

    private static boolean answersPing(int port) {
        try {
            return RedisServer.command(port, "PING").startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    /** A number from a reply of field, value pairs ({@code SENTINEL MASTER}); -1 if missing. */
    private static int field(String reply, String name) {
        List<String> words = bulkStrings(reply);
        for (int i = 0; i + 1 < words.size(); i += 2) {
            if (words.get(i).equals(name)) {
                return Integer.parseInt(words.get(i + 1));
            }
        }
        return -1;
    }

    private static List<String> bulkStrings(String reply) {
        List<String> words = new ArrayList<>();
        String[] lines = reply.split("\r\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("$") && !lines[i].equals("$-1") && i + 1 < lines.length) {
                words.add(lines[++i]);
            }
        }
        return words;
    }
}
