package io.breaker.spring.actuate;

import io.breaker.Transition;
import io.breaker.spring.actuate.BreakerEventStream.End;
import io.breaker.spring.actuate.BreakerEventStream.Subscriber;
import org.springframework.lang.Nullable;

import java.util.Objects;
import java.util.function.Function;

/**
 * One subscriber's stream as the text its client reads, the same on every web stack: the reconnection
 * delay and a {@code snapshot} first, then a {@code transition} per state change, a keep-alive comment
 * after {@link BreakerEventStream#KEEP_ALIVE} without one, and at the end {@code dropped} (the client fell
 * behind) or {@code end} (the subscription reached its lifetime, or the application is stopping). A
 * reader with a thread of its own (Spring MVC) calls {@link #next()}; one without (WebFlux) calls
 * {@link #poll()} when told through {@link #onSignal} or when {@link #nanosUntilDue()} has passed.
 *
 * <p>One reader at a time: a session is not for concurrent use, but {@link #close()} may come from
 * another thread (a client that went away).
 */
public final class BreakerStreamSession implements AutoCloseable {

    static final String KEEP_ALIVE_FRAME = ": keep-alive\n\n";

    private final BreakerEventStream stream;
    private final Subscriber subscriber;
    private final BreakerOperations operations;
    private final Function<Object, String> json;
    private final long keepAliveNanos = BreakerEventStream.KEEP_ALIVE.toNanos();

    private boolean opened;
    private long lastFrame;
    private volatile boolean finished;

    /**
     * @param stream     the stream the subscriber belongs to (its clock)
     * @param subscriber an admitted subscriber; the session closes it
     * @param operations what the endpoint shows of a breaker
     * @param json       writes an answer as the actuator does (one line of JSON)
     */
    public BreakerStreamSession(
            BreakerEventStream stream,
            Subscriber subscriber,
            BreakerOperations operations,
            Function<Object, String> json) {
        this.stream = Objects.requireNonNull(stream, "stream");
        this.subscriber = Objects.requireNonNull(subscriber, "subscriber");
        this.operations = Objects.requireNonNull(operations, "operations");
        this.json = Objects.requireNonNull(json, "json");
    }

    /**
     * The frame due now, or {@code null} when none is: first the opening, then what the subscriber has,
     * a keep-alive when one is due, and once the subscription has ended its last frame. Never waits.
     */
    @Nullable
    public String poll() {
        if (finished) {
            return null;
        }
        long now = stream.nanoTime();
        if (!opened) {
            opened = true;
            lastFrame = now;
            return "retry: " + BreakerEventStream.RECONNECT.toMillis() + "\n\n"
                    + event("snapshot", json.apply(operations.describeAll()));
        }
        End end = subscriber.end();
        if (end != null) {
            close();
            return closing(end);
        }
        Transition transition = subscriber.poll();
        if (transition != null) {
            lastFrame = now;
            return event(
                    "transition",
                    json.apply(new TransitionEventDescriptor(
                            transition.breaker(),
                            TransitionDescriptor.of(transition),
                            operations.describe(transition.breaker()).orElse(null))));
        }
        if (now - lastFrame >= keepAliveNanos) {
            lastFrame = now;
            return KEEP_ALIVE_FRAME;
        }
        return null;
    }

    /**
     * The next frame, waiting on the caller's thread until one is due; {@code null} once the stream has
     * ended.
     *
     * @throws InterruptedException if the caller's thread is interrupted
     */
    @Nullable
    public String next() throws InterruptedException {
        while (true) {
            String frame = poll();
            if (frame != null || finished) {
                return frame;
            }
            subscriber.await(nanosUntilDue());
        }
    }

    /** Nanoseconds until a frame is due if nothing arrives before: the next keep-alive, or the end. */
    public long nanosUntilDue() {
        long keepAlive = opened ? lastFrame + keepAliveNanos - stream.nanoTime() : 0;
        return Math.min(keepAlive, subscriber.nanosLeft());
    }

    /** Nanoseconds until the subscription reaches its lifetime. */
    public long nanosUntilEnd() {
        return subscriber.nanosLeft();
    }

    /** Whether the subscription has ended (its last frame may not have been taken yet). */
    public boolean hasEnded() {
        return finished || subscriber.end() != null;
    }

    /** Whether the last frame has been taken, or the session closed: nothing more will come. */
    public boolean isFinished() {
        return finished;
    }

    /** See {@link Subscriber#onSignal}: what to run when a transition arrives or the subscription ends. */
    public void onSignal(Runnable task) {
        subscriber.onSignal(task);
    }

    /**
     * Frees the subscriber's slot once the subscription has ended, while its last frame is still to be
     * taken ({@link #poll()} still gives it).
     */
    public void release() {
        subscriber.close();
    }

    /** Ends the session and frees its slot (the client went away, or the stream ended). */
    @Override
    public void close() {
        finished = true;
        subscriber.close();
    }

    @Nullable
    private String closing(End end) {
        return switch (end) {
            case DROPPED ->
                event(
                        "dropped",
                        "{\"reason\":\"this client fell " + BreakerEventStream.QUEUE_CAPACITY
                                + " transitions behind\"}");
            case EXPIRED ->
                event(
                        "end",
                        "{\"reason\":\"a stream lasts " + stream.lifetime().toSeconds()
                                + " s: connect again for the next one\"}");
            case SHUTDOWN -> event("end", "{\"reason\":\"the application is shutting down\"}");
            case CLOSED -> null;
        };
    }

    private static String event(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
