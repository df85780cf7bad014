package io.breaker.spring.metrics;

import io.breaker.CallOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import java.util.Locale;

/**
 * Reads how many calls of one breaker its {@value BreakerMeterBinder#CALLS} timers counted, by
 * outcome: a search of the meter registry, for a reader that asks now and then (the console), never
 * for the call path.
 */
public final class BreakerCallCounts {

    private BreakerCallCounts() {}

    /**
     * The count of each outcome, indexed by {@link CallOutcome#ordinal()}, or {@code null} when the
     * registry has no {@value BreakerMeterBinder#CALLS} timer for the breaker {@code name}.
     */
    public static long @Nullable [] of(MeterRegistry meters, String name) {
        long[] counts = new long[CallOutcome.values().length];
        boolean found = false;
        for (Timer timer :
                meters.find(BreakerMeterBinder.CALLS).tag("name", name).timers()) {
            String outcome = timer.getId().getTag("outcome");
            if (outcome != null) {
                counts[CallOutcome.valueOf(outcome.toUpperCase(Locale.ROOT)).ordinal()] += timer.count();
                found = true;
            }
        }
        return found ? counts : null;
    }
}
