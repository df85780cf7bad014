package io.breaker.redis;

import io.breaker.spring.store.StoreFailureMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Whether Redis answers, decided from a pattern rather than from one operation: a slow answer on a
 * busy machine is not an outage. An outage starts when
 * <ul>
 * <li>{@link #ERRORS_FOR_OUTAGE} operations in a row failed with an error (Redis refused or dropped
 *     the connection), or</li>
 * <li>operations kept going unanswered for {@link RedisStoreSettings#outageAfter()}: a failure is
 *     noticed that long after the first failure of the streak, and nothing answered in between,
 *     not even late.</li>
 * </ul>
 * Any answer, even one that arrives after its caller stopped waiting, ends the streak: Redis is up,
 * only slow. So a JVM pause or a CPU-starved instance, after which many waits time out at once and
 * their answers arrive a moment later, does not take the instance out of the fleet. Before Redis has
 * answered once (the connection is still being opened), the streak may last {@link #WARM_UP} first.
 *
 * <p>Logged per episode: one WARN line when the outage starts, one INFO line when Redis answers again.
 */
final class StoreHealth {

    private static final Log LOG = LogFactory.getLog(RedisStateStore.class);
    /** Operations failing with an error in a row that make an outage at once. */
    static final int ERRORS_FOR_OUTAGE = 3;
    /** Until Redis has answered once, how long operations may go unanswered before it is an outage. */
    static final Duration WARM_UP = Duration.ofSeconds(10);

    private final AtomicBoolean available = new AtomicBoolean(true);
    private final LongAdder failures = new LongAdder();
    private final AtomicLong episodeFailures = new AtomicLong();
    private final AtomicLong outages = new AtomicLong();
    private final RedisStoreSettings settings;
    private final long outageAfterNanos;
    /** Failures in a row without any answer in between, and how many of them were errors. */
    private final AtomicLong streak = new AtomicLong();

    private final AtomicLong errorStreak = new AtomicLong();
    /** When (System.nanoTime) the current streak's first failure was noticed. */
    private volatile long streakStartNanos;

    private volatile boolean answeredOnce;
    private volatile long episodeStartNanos;

    StoreHealth(RedisStoreSettings settings) {
        this.settings = settings;
        this.outageAfterNanos = settings.outageAfter().toNanos();
    }

    boolean isAvailable() {
        return available.get();
    }

    /**
     * Whether the last operations went unanswered (a streak is under way): not an outage yet, but
     * the fleet's verdict is not arriving either.
     */
    boolean isSilent() {
        return streak.get() != 0;
    }

    long failures() {
        return failures.sum();
    }

    /** Outages declared since the store was created. */
    long outages() {
        return outages.get();
    }

    /**
     * An operation got no answer in time ({@code error == false}: a timeout) or failed with an error;
     * returns {@code true} if this starts an outage.
     */
    boolean failed(Throwable cause, boolean error) {
        failures.increment();
        episodeFailures.incrementAndGet();
        long now = System.nanoTime();
        if (streak.getAndIncrement() == 0) {
            streakStartNanos = now;
        }
        long errors = error ? errorStreak.incrementAndGet() : errorStreak.get();
        long patience = answeredOnce ? outageAfterNanos : WARM_UP.toNanos();
        boolean outage = errors >= ERRORS_FOR_OUTAGE || now - streakStartNanos >= patience;
        if (!outage || !available.compareAndSet(true, false)) {
            return false;
        }
        episodeStartNanos = now;
        outages.incrementAndGet();
        LOG.warn("Breaker state store unavailable: store=redis failureMode=" + settings.failureMode()
                + " timeout=" + settings.timeout().toMillis() + "ms unansweredFor="
                + TimeUnit.NANOSECONDS.toMillis(now - streakStartNanos) + "ms failedInARow=" + streak.get()
                + " error=" + describe(cause)
                + (settings.failureMode() == StoreFailureMode.PROTECT_LOCALLY
                        ? "; each instance protects itself with its own breaker until Redis answers again"
                        : "; breakers reject calls until Redis answers again"));
        return true;
    }

    /** An operation was not even tried: the store is known to be down. */
    void skipped() {
        failures.increment();
        episodeFailures.incrementAndGet();
    }

    /**
     * An operation got its answer, in time or late; returns {@code true} if this ends an outage.
     */
    boolean succeeded() {
        answeredOnce = true;
        if (streak.get() != 0) {
            streak.set(0);
            errorStreak.set(0);
        }
        if (available.get() || !available.compareAndSet(false, true)) {
            return false;
        }
        long failed = episodeFailures.getAndSet(0L);
        Duration down = Duration.ofNanos(System.nanoTime() - episodeStartNanos);
        LOG.info("Breaker state store reachable again: store=redis failedOperations=" + failed + " downFor="
                + down.toMillis() + "ms; breakers resynchronise with the shared state");
        return true;
    }

    private static String describe(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == error
                ? error.getClass().getName() + ": " + error.getMessage()
                : error.getClass().getName() + " (" + root.getClass().getName() + ": " + root.getMessage() + ")";
    }
}
