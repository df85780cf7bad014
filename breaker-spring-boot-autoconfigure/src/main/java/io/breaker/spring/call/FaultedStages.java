package io.breaker.spring.call;

import io.breaker.Faults;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Faults ({@link Faults}) injected into a call that returns a {@link CompletionStage}, without
 * blocking the caller: an injected failure is a failed future (as the method's own failure would
 * be), and an injected latency starts the method later on {@link CompletableFuture#delayedExecutor},
 * the caller getting a future at once. Only a breaker with faults comes here.
 */
public final class FaultedStages {

    /** Runs the method and returns what it returns (a {@code CompletionStage}, or {@code null}). */
    @FunctionalInterface
    public interface Method {

        @Nullable
        Object run() throws Throwable;
    }

    private FaultedStages() {}

    /**
     * What the call returns with {@code faults} drawn for it now: the method's own answer when no
     * fault is drawn, else a failed or a delayed future.
     */
    public static @Nullable Object call(Faults faults, Method method) throws Throwable {
        long delay = faults.latencyNanos();
        Throwable failure = faults.failure();
        if (delay == 0L) {
            return failure != null ? CompletableFuture.failedFuture(failure) : method.run();
        }
        return CompletableFuture.runAsync(() -> {}, CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS))
                .thenCompose(ignored -> {
                    if (failure != null) {
                        return CompletableFuture.failedFuture(failure);
                    }
                    try {
                        Object returned = method.run();
                        return returned == null
                                ? CompletableFuture.completedFuture(null)
                                : (CompletionStage<?>) returned;
                    } catch (Throwable thrown) {
                        return CompletableFuture.failedFuture(thrown);
                    }
                });
    }
}
