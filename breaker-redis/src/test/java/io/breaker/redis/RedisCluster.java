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
 * A Redis Cluster of three masters for a test class, on loopback and free ports, each owning a third
 * of the slots, run by {@code redis-server} with persistence off (no replicas: a test of the slots and
 * the client's redirections, not of failover). Skipped with a message where {@code redis-server} is
 * not installed, failed under {@code CI=true}, as {@link RedisServer} is.
 */
public final class RedisCluster implements BeforeAllCallback, AfterAllCallback {

    private static final int SLOTS = 16384;

    private final int[] ports = new int[3];
    private final List<Process> processes = new ArrayList<>();
    private Path directory;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Path binary = RedisServer.locateBinary();
        if (binary == null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(RedisServer.INSTALL + " (CI=true: these tests must run on CI)");
            }
            Assumptions.abort(RedisServer.INSTALL + "; skipping " + context.getDisplayName());
        }
        directory = Files.createTempDirectory("breaker-redis-cluster");
        for (int i = 0; i < ports.length; i++) {
            ports[i] = RedisServer.freePort();
            Path node = Files.createDirectories(directory.resolve("node-" + i));
            Process process = new ProcessBuilder(
                            binary.toString(),
                            "--port",
                            Integer.toString(ports[i]),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no",
                            "--dir",
                            node.toString(),
                            "--cluster-enabled",
                            "yes",
                            "--cluster-config-file",
                            "nodes.conf",
                            "--cluster-node-timeout",
                            "2000")
                    .redirectErrorStream(true)
                    .redirectOutput(node.resolve("redis.log").toFile())
                    .start();
            processes.add(process);
            awaitPing(i, process);
        }
        for (int i = 0; i < ports.length; i++) {
            int first = i * SLOTS / ports.length;
            int last = (i + 1) * SLOTS / ports.length - 1;
            String added = RedisServer.command(
                    ports[i], "CLUSTER", "ADDSLOTSRANGE", Integer.toString(first), Integer.toString(last));
            if (!added.startsWith("+OK")) {
                throw new IllegalStateException("CLUSTER ADDSLOTSRANGE failed on port " + ports[i] + ": " + added);
            }
        }
        for (int i = 1; i < ports.length; i++) {
            RedisServer.command(ports[0], "CLUSTER", "MEET", "127.0.0.1", Integer.toString(ports[i]));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (int port : ports) {
            while (!RedisServer.command(port, "CLUSTER", "INFO").contains("cluster_state:ok")
                    || !RedisServer.command(port, "CLUSTER", "INFO").contains("cluster_known_nodes:3")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the three-master cluster did not become ready: "
                            + RedisServer.command(port, "CLUSTER", "INFO"));
                }
                Thread.sleep(50);
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

    /** {@code spring.data.redis.cluster.nodes}: the three masters. */
    public String nodes() {
        StringBuilder nodes = new StringBuilder();
        for (int port : ports) {
            nodes.append(nodes.length() == 0 ? "" : ",").append("127.0.0.1:").append(port);
        }
        return nodes.toString();
    }

    /** The ports of the three masters. */
    public int[] ports() {
        return ports.clone();
    }

    /** The port of the master that owns {@code key}'s slot. */
    public int portOf(String key) throws IOException {
        String reply = RedisServer.command(ports[0], "CLUSTER", "KEYSLOT", key);
        int slot = Integer.parseInt(reply.substring(1).trim());
        return ports[Math.min(ports.length - 1, slot * ports.length / SLOTS)];
    }

    /** Sends one command to the master on {@code port} (see {@link RedisServer#command}). */
    public String command(int port, String... words) throws IOException {
        return RedisServer.command(port, words);
    }

    private void awaitPing(int i, Process process) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                if (RedisServer.command(ports[i], "PING").startsWith("+PONG")) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("cluster node " + i + " did not start on port " + ports[i] + ": "
                        + Files.readString(directory.resolve("node-" + i).resolve("redis.log")));
            }
            Thread.sleep(20);
        }
    }
}
