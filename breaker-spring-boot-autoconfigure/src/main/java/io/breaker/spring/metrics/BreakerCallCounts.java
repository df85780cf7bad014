package io.breaker.spring.metrics;

import io.breaker.CallOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reads how many calls of a breaker its {@value BreakerMeterBinder#CALLS} timers counted, by outcome,
 * for a reader that asks now and then (the console's history), never for the call path. The timers
 * of a breaker are searched in the meter registry once, when all of them exist, and kept.
 */
public final class BreakerCallCounts {

    private static final CallOutcome[] OUTCOMES = CallOutcome.values();

    private final Supplier<@Nullable MeterRegistry> meters;
    /** Each breaker's timers, indexed by {@link CallOutcome#ordinal()}. */
    private final Map<String, Timer[]> timers = new ConcurrentHashMap<>();

    /** @param meters the meter registry, looked up at the first read (null: none yet) */
    public BreakerCallCounts(Supplier<@Nullable MeterRegistry> meters) {
        this.meters = Objects.requireNonNull(meters, "meters");
    }

    /**
     * The count of each outcome of the breaker {@code name}, indexed by {@link CallOutcome#ordinal()},
     * or {@code null} when there is no meter registry or it has not every timer of that breaker.
     */
    public long @Nullable [] of(String name) {
        Timer[] found = timers.get(name);
        if (found == null) {
            found = find(name);
            if (found == null) {
                return null;
            }
            timers.put(name, found);
        }
        long[] counts = new long[OUTCOMES.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = found[i].count();
        }
        return counts;
    }

    private Timer @Nullable [] find(String name) {
        MeterRegistry registry = meters.get();
        if (registry == null) {
            return null;
        }
        Timer[] found = new Timer[OUTCOMES.length];
        for (Timer timer :
                registry.find(BreakerMeterBinder.CALLS).tag("name", name).timers()) {
            String outcome = timer.getId().getTag("outcome");
            if (outcome != null) {
                found[CallOutcome.valueOf(outcome.toUpperCase(Locale.ROOT)).ordinal()] = timer;
            }
        }
        for (Timer timer : found) {
            if (timer == null) {
                return null;
            }
        }
        return found;
    }
}
