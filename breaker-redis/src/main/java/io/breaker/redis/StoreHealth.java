package io.breaker.redis;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Whether Redis answers, counted and logged per episode: one WARN line when it stops answering, one
 * INFO line when it answers again, nothing per call in between.
 */
final class StoreHealth {

    private static final Log LOG = LogFactory.getLog(RedisStateStore.class);

    private final AtomicBoolean available = new AtomicBoolean(true);
    private final LongAdder failures = new LongAdder();
    private final AtomicLong episodeFailures = new AtomicLong();
    private final RedisStoreSettings settings;
    private volatile long episodeStartNanos;

    StoreHealth(RedisStoreSettings settings) {
        this.settings = settings;
    }

    boolean isAvailable() {
        return available.get();
    }

    long failures() {
        return failures.sum();
    }

    /** An operation got no answer in time, or an error; returns {@code true} if this starts an episode. */
    boolean failed(Throwable error) {
        failures.increment();
        episodeFailures.incrementAndGet();
        if (!available.compareAndSet(true, false)) {
            return false;
        }
        episodeStartNanos = System.nanoTime();
        LOG.warn("Breaker state store unavailable: store=redis failureMode=" + settings.failureMode()
                + " timeout=" + settings.timeout().toMillis() + "ms error=" + describe(error)
                + (settings.failureMode() == StoreFailureMode.PROTECT_LOCALLY
                        ? "; breakers protect each instance locally until Redis answers again"
                        : "; breakers reject calls until Redis answers again"));
        return true;
    }

    /** An operation was not even tried: the store is known to be down. */
    void skipped() {
        failures.increment();
        episodeFailures.incrementAndGet();
    }

    /** An operation got its answer; returns {@code true} if this ends an episode. */
    boolean succeeded() {
        if (available.get() || !available.compareAndSet(false, true)) {
            return false;
        }
        long failed = episodeFailures.getAndSet(0L);
        Duration down = Duration.ofNanos(System.nanoTime() - episodeStartNanos);
        LOG.info("Breaker state store reachable again: store=redis failedOperations=" + failed
                + " downFor=" + down.toMillis() + "ms; breakers resynchronise with the shared state");
        return true;
    }

    private static String describe(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == error ? error.getClass().getName() + ": " + error.getMessage()
                : error.getClass().getName() + " (" + root.getClass().getName() + ": " + root.getMessage() + ")";
    }
}
