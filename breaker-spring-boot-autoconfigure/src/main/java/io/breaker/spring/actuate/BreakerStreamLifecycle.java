package io.breaker.spring.actuate;

import org.springframework.context.SmartLifecycle;

import java.util.Objects;

/**
 * Ends every open stream when the application stops, before the web server's graceful shutdown
 * (phase {@code SmartLifecycle.DEFAULT_PHASE - 1024} on every Boot line) starts to wait for requests
 * still running: a stream never ends by itself before its lifetime, so one open stream would otherwise
 * hold every graceful shutdown for its whole timeout, and then be cut. Each client gets an {@code end}
 * event and the end of its response; new subscribers are refused until the application starts again.
 */
public final class BreakerStreamLifecycle implements SmartLifecycle {

    /** Stops before the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}). */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private final BreakerEventStream stream;
    private volatile boolean running;

    public BreakerStreamLifecycle(BreakerEventStream stream) {
        this.stream = Objects.requireNonNull(stream, "stream");
    }

    @Override
    public void start() {
        stream.reopen();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        stream.closeAll();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
