package io.breaker.spring.cloud.gateway;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The backend behind a test Gateway, on a free port of 127.0.0.1: it answers each path with the status
 * set for its first segment ({@code /orders/1} with that of {@code orders}, 200 unless set), or does not
 * answer until it is closed ({@link #hang}), and counts the requests that arrive per first segment and
 * keeps the headers of the last one.
 */
final class Backend implements AutoCloseable {

    private static final int HANG = -1;

    private final HttpServer server;
    private final Map<String, Integer> statuses = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> arrivals = new ConcurrentHashMap<>();
    private final Map<String, Headers> lastHeaders = new ConcurrentHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final ExecutorService executor = Executors.newCachedThreadPool();

    Backend() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::answer);
        server.setExecutor(executor); // a hung request must not hold up the others
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on, requests under {@code /segment} get {@code status}. */
    void answer(String segment, int status) {
        statuses.put(segment, status);
    }

    /** From now on, requests under {@code /segment} get no answer until the backend is closed. */
    void hang(String segment) {
        statuses.put(segment, HANG);
    }

    /** How many requests under {@code /segment} arrived. */
    int arrivals(String segment) {
        AtomicInteger count = arrivals.get(segment);
        return count == null ? 0 : count.get();
    }

    /** The value of header {@code name} in the last request under {@code /segment}, or {@code null}. */
    String lastHeader(String segment, String name) {
        Headers headers = lastHeaders.get(segment);
        return headers == null ? null : headers.getFirst(name);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String segment = path.split("/", 3).length > 1 ? path.split("/", 3)[1] : "";
        lastHeaders.put(segment, exchange.getRequestHeaders());
        arrivals.computeIfAbsent(segment, key -> new AtomicInteger()).incrementAndGet();
        int status = statuses.getOrDefault(segment, 200);
        if (status == HANG) {
            try {
                closed.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
            return;
        }
        byte[] body = ("backend " + status).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
