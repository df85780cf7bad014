package io.breaker.sample.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A wholesaler on a port of its own (the JDK's built-in HTTP server, bound to loopback), so that
 * "down" can be real: in {@link WholesalerMode#DOWN} the listening socket is closed and every
 * connection is refused, exactly as when a dependency's process dies.
 *
 * <p>Its API: {@code GET /books/{isbn13}/delivery} answers {@code {"isbn":"...","days":N}}, or 404
 * for a book outside its small catalogue. It counts every request it receives, whatever its mode,
 * so one can see that nothing reaches it while the breaker is open.
 */
public class WholesalerSimulator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WholesalerSimulator.class);
    private static final Pattern DELIVERY_PATH = Pattern.compile("/books/(\\d{13})/delivery");

    /** The books it knows, by ISBN-13, with their delivery time in days. */
    static final Map<String, Integer> CATALOGUE = Map.of(
            "9780134685991", 2,
            "9780201633610", 5,
            "9781617294945", 3,
            "9781593275846", 7);

    private final SimulatorProperties properties;
    private final ExecutorService handlers;
    private final AtomicLong requestsReceived = new AtomicLong();
    private volatile WholesalerMode mode = WholesalerMode.HEALTHY;
    private @Nullable HttpServer server; // guarded by this

    public WholesalerSimulator(SimulatorProperties properties) {
        this.properties = properties;
        this.handlers = Executors.newFixedThreadPool(16, runnable -> {
            Thread thread = new Thread(runnable, "wholesaler-simulator");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts listening, in {@link WholesalerMode#HEALTHY} mode. */
    public synchronized void start() {
        listen();
        LOG.info("Simulated wholesaler listening on {} (mode={})", baseUrl(), mode);
    }

    /** Switches the behaviour; {@code DOWN} closes the listening socket, leaving it reopens it. */
    public synchronized void switchTo(WholesalerMode newMode) {
        WholesalerMode previous = mode;
        if (newMode == WholesalerMode.DOWN && server != null) {
            server.stop(0);
            server = null;
        }
        mode = newMode;
        if (newMode != WholesalerMode.DOWN && server == null) {
            listen();
        }
        LOG.info("Simulated wholesaler switched: from={} to={}", previous, newMode);
    }

    public WholesalerMode mode() {
        return mode;
    }

    /** Requests received since start-up, in every mode. */
    public long requestsReceived() {
        return requestsReceived.get();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + properties.port();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        handlers.shutdownNow();
    }

    private void listen() {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), properties.port());
        try {
            HttpServer created = HttpServer.create(address, 50);
            created.setExecutor(handlers);
            created.createContext("/", this::handle);
            created.start();
            server = created;
        } catch (BindException e) {
            throw new IllegalStateException(
                    "The simulated wholesaler cannot listen on port " + properties.port() + " (" + e.getMessage()
                            + "); choose another one with bookshop.simulator.port",
                    e);
        } catch (IOException e) {
            throw new IllegalStateException("The simulated wholesaler cannot start on " + address, e);
        }
    }

    private void handle(HttpExchange exchange) {
        requestsReceived.incrementAndGet();
        try (exchange) {
            switch (mode) {
                case FAILING -> respond(exchange, 503, "{\"error\":\"service unavailable\"}");
                case THROTTLING -> {
                    exchange.getResponseHeaders().add("Retry-After", "1");
                    respond(exchange, 429, "{\"error\":\"too many requests\"}");
                }
                case SLOW -> {
                    pause();
                    answer(exchange);
                }
                default -> answer(exchange);
            }
        } catch (IOException e) {
            // The caller gave up (its read timeout passed while we were slow): nobody is left to answer.
            LOG.debug("Simulated wholesaler could not answer: {}", e.toString());
        }
    }

    private void answer(HttpExchange exchange) throws IOException {
        Matcher matcher = DELIVERY_PATH.matcher(exchange.getRequestURI().getPath());
        if (!"GET".equals(exchange.getRequestMethod()) || !matcher.matches()) {
            respond(exchange, 400, "{\"error\":\"expected GET /books/{isbn13}/delivery\"}");
            return;
        }
        String isbn = matcher.group(1);
        Integer days = CATALOGUE.get(isbn);
        if (days == null) {
            respond(exchange, 404, "{\"error\":\"unknown book\",\"isbn\":\"" + isbn + "\"}");
        } else {
            respond(exchange, 200, "{\"isbn\":\"" + isbn + "\",\"days\":" + days + "}");
        }
    }

    private void pause() {
        try {
            Thread.sleep(properties.slowDelay().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
