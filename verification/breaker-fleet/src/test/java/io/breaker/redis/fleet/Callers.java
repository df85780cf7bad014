package io.breaker.redis.fleet;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One caller thread per instance, each calling its instance's {@code /call} back to back, as one
 * busy client per instance would. Every call goes into the round's {@link CallLog}.
 */
final class Callers implements AutoCloseable {

    /** Far above any answer the breaker should give; a call that takes this long is an error. */
    private static final Duration CALL_LIMIT = Duration.ofSeconds(10);

    private final List<URI> endpoints;
    private final List<HttpClient> clients = new ArrayList<>();
    private final ExecutorService threads;

    Callers(FleetProcesses fleet) {
        endpoints = new ArrayList<>();
        for (int i = 0; i < fleet.size(); i++) {
            endpoints.add(fleet.uri(i, "/call"));
            // One client (one connection) per caller: callers must not wait on each other in this JVM.
            clients.add(HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(CALL_LIMIT)
                    .build());
        }
        threads = Executors.newFixedThreadPool(endpoints.size());
    }

    /** Every caller makes {@code calls} calls, all callers at once; returns when all are done. */
    void callEach(int calls, CallLog log) throws InterruptedException {
        AtomicBoolean never = new AtomicBoolean();
        List<Future<?>> running = submit(log, calls, never);
        join(running);
    }

    /** Starts every caller calling until {@link Traffic#stop()}. */
    Traffic start(CallLog log) {
        AtomicBoolean stop = new AtomicBoolean();
        return new Traffic(submit(log, Integer.MAX_VALUE, stop), stop);
    }

    /** Calls that go on until stopped. */
    final class Traffic {

        private final List<Future<?>> running;
        private final AtomicBoolean stop;

        private Traffic(List<Future<?>> running, AtomicBoolean stop) {
            this.running = running;
            this.stop = stop;
        }

        /** Stops every caller after its current call and waits for them. */
        void stop() throws InterruptedException {
            stop.set(true);
            join(running);
        }
    }

    private List<Future<?>> submit(CallLog log, int calls, AtomicBoolean stop) {
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i++) {
            int instance = i;
            running.add(threads.submit(() -> {
                // Interrupted: close() gave up waiting for a stop that a failed round never sent.
                for (int made = 0;
                        made < calls && !stop.get() && !Thread.currentThread().isInterrupted();
                        made++) {
                    log.add(call(instance));
                }
            }));
        }
        return running;
    }

    private CallLog.Call call(int instance) {
        HttpRequest request = HttpRequest.newBuilder(endpoints.get(instance))
                .timeout(CALL_LIMIT)
                .build();
        long start = System.nanoTime();
        try {
            int status = clients.get(instance)
                    .send(request, HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            return new CallLog.Call(
                    instance,
                    start,
                    System.nanoTime(),
                    status,
                    status == CallLog.LIVE || status == CallLog.FAILED || status == CallLog.REJECTED
                            ? null
                            : "HTTP " + status);
        } catch (IOException e) {
            return new CallLog.Call(instance, start, System.nanoTime(), CallLog.NO_ANSWER, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CallLog.Call(instance, start, System.nanoTime(), CallLog.NO_ANSWER, "interrupted");
        }
    }

    private static void join(List<Future<?>> running) throws InterruptedException {
        for (Future<?> future : running) {
            try {
                future.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a caller failed", e.getCause());
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(CALL_LIMIT.toSeconds() + 5, TimeUnit.SECONDS);
    }
}
