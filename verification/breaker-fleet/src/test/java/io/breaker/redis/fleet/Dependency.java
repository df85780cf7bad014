package io.breaker.redis.fleet;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The remote dependency every instance of the fleet calls: an HTTP server in the test JVM that
 * answers 200 while healthy and 503 while failing, and records when each request arrived.
 */
final class Dependency implements AutoCloseable {

    /**
     * One request as the dependency saw it; {@code failed} when it was answered 503; {@code instance}
     * is the index of the instance that sent it (each calls its own path, {@code /i<index>}), or -1;
     * {@code alone} when the instance marked it as sent while its store was declared down
     * ({@code ?alone=1}).
     */
    record Arrival(long nanos, boolean failed, int instance, boolean alone) {}

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Arrival> arrivals = new ArrayList<>();
    private volatile boolean failing;

    /** For a fleet of up to 8 instances. */
    Dependency() throws IOException {
        this(8);
    }

    /** For a fleet of {@code instances}, each with one caller: one call at a time per instance. */
    Dependency(int instances) throws IOException {
        // Without it, the server's separate writes of headers and body meet the client's delayed ACK and
        // every call takes about 40 ms instead of under one: a slow dependency the fleet does not have.
        // The JDK reads it once, when the first server of the JVM is created (only this class creates one here).
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        // More threads than instances: a request must never queue here, or its arrival time would lie.
        executor = Executors.newFixedThreadPool(Math.max(16, instances + 8));
        server.setExecutor(executor);
        server.createContext("/", this::answer);
        server.start();
    }

    /** The address instance {@code index} calls: requests are told apart by their path. */
    URI uri(int index) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/i" + index);
    }

    /** Answers 200 from now on; returns the time of the switch. */
    long healthy() {
        failing = false;
        return System.nanoTime();
    }

    /** Answers 503 from now on; returns the time of the switch. */
    long failing() {
        failing = true;
        return System.nanoTime();
    }

    /** The requests that arrived in {@code [from, to]}, oldest first. */
    synchronized List<Arrival> arrivals(long from, long to) {
        List<Arrival> between = new ArrayList<>();
        for (Arrival arrival : arrivals) {
            if (arrival.nanos() >= from && arrival.nanos() <= to) {
                between.add(arrival);
            }
        }
        return between;
    }

    /** Forgets what arrived so far (between rounds, so that the list stays short). */
    synchronized void clear() {
        arrivals.clear();
    }

    private void answer(HttpExchange exchange) throws IOException {
        long now = System.nanoTime();
        boolean failed = failing;
        synchronized (this) {
            arrivals.add(new Arrival(
                    now,
                    failed,
                    instance(exchange.getRequestURI().getPath()),
                    "alone=1".equals(exchange.getRequestURI().getQuery())));
        }
        byte[] body = (failed ? "down" : "ok").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(failed ? 503 : 200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static int instance(String path) {
        try {
            return path.startsWith("/i") ? Integer.parseInt(path.substring(2)) : -1;
        } catch (NumberFormatException notOurs) {
            return -1;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
