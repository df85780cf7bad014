package io.breaker.dynamodb;

import io.breaker.spring.store.StoreFailureMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Whether the table answers, decided from a pattern, as the Redis store decides it: an outage starts
 * after {@link #ERRORS_FOR_OUTAGE} errors in a row, or when operations went unanswered for
 * {@link DynamoStoreSettings#outageAfter()} with no answer in between, not even a late one. Any answer
 * (a failed condition is an answer) ends the streak. One WARN line when an outage starts, one INFO line
 * when the table answers again.
 */
final class TableHealth {

    private static final Log LOG = LogFactory.getLog(DynamoStateStore.class);
    /** Errors in a row (the client failed, not a timeout) that make an outage at once. */
    static final int ERRORS_FOR_OUTAGE = 3;

    private final DynamoStoreSettings settings;
    private final AtomicBoolean available = new AtomicBoolean(true);
    private final LongAdder failures = new LongAdder();
    private final AtomicLong outages = new AtomicLong();
    private final AtomicLong streak = new AtomicLong();
    private final AtomicLong errorStreak = new AtomicLong();
    private volatile long streakStartNanos;
    private volatile long outageStartNanos;

    TableHealth(DynamoStoreSettings settings) {
        this.settings = settings;
    }

    boolean isAvailable() {
        return available.get();
    }

    /** Whether the last operations went unanswered: not an outage yet, but no fleet verdict is arriving. */
    boolean isSilent() {
        return streak.get() != 0;
    }

    long failures() {
        return failures.sum();
    }

    long outages() {
        return outages.get();
    }

    /** An operation timed out ({@code error == false}) or failed; returns whether this starts an outage. */
    boolean failed(Throwable cause, boolean error) {
        failures.increment();
        long now = System.nanoTime();
        if (streak.getAndIncrement() == 0) {
            streakStartNanos = now;
        }
        long errors = error ? errorStreak.incrementAndGet() : errorStreak.get();
        boolean outage = errors >= ERRORS_FOR_OUTAGE
                || now - streakStartNanos >= settings.outageAfter().toNanos();
        if (!outage || !available.compareAndSet(true, false)) {
            return false;
        }
        outageStartNanos = now;
        outages.incrementAndGet();
        LOG.warn("Breaker state store unavailable: store=dynamodb table=" + settings.table() + " failureMode="
                + settings.failureMode() + " timeout=" + settings.timeout().toMillis() + "ms unansweredFor="
                + TimeUnit.NANOSECONDS.toMillis(now - streakStartNanos) + "ms failedInARow=" + streak.get()
                + " error=" + cause
                + (settings.failureMode() == StoreFailureMode.PROTECT_LOCALLY
                        ? "; each instance protects itself with its own breaker until the table answers again"
                        : "; breakers reject calls until the table answers again"));
        return true;
    }

    /** An operation was not tried: the table is known to be down. */
    void skipped() {
        failures.increment();
    }

    /** An answer came, in time or late; returns whether this ends an outage. */
    boolean succeeded() {
        if (streak.get() != 0) {
            streak.set(0);
            errorStreak.set(0);
        }
        if (available.get() || !available.compareAndSet(false, true)) {
            return false;
        }
        if (LOG.isInfoEnabled()) {
            LOG.info("Breaker state store reachable again: store=dynamodb table=" + settings.table() + " downFor="
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - outageStartNanos)
                    + "ms; breakers resynchronise with the shared state");
        }
        return true;
    }
}
