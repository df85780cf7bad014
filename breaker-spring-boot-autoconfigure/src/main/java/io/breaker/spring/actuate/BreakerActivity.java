package io.breaker.spring.actuate;

import io.breaker.BreakerMetrics;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's history of every breaker: a ring of the last {@link #CAPACITY} samples per breaker,
 * each taken when the endpoint or its stream describes the breaker, at most one per {@link #SPACING}.
 *
 * <p>Rules:
 * <ul>
 * <li><b>The call path pays nothing.</b> No listener, no counter of its own: a sample reads the
 *     breaker's metrics and the totals its meters already keep ({@link CallTotals.Source}). Nobody
 *     reading, nothing is written.</li>
 * <li><b>No thread, no timer.</b> A sample is taken by the read that asks for it, so the history has
 *     gaps while nobody looks; the console plots each interval between two samples at its real
 *     length.</li>
 * <li><b>Bounded.</b> A ring is created at a breaker's first read and holds at most
 *     {@link #CAPACITY} samples of nine numbers (about 100 bytes each with their {@code Instant}: 12.3 KB per breaker when
 *     full). With the console open it covers {@code CAPACITY} reads of the page (five seconds apart:
 *     ten minutes); however many read at once, at least {@code CAPACITY × SPACING}.</li>
 * <li>Reads are rare (a page every few seconds), so a ring is guarded by its own monitor.</li>
 * </ul>
 */
public final class BreakerActivity {

    /** Samples kept per breaker. */
    public static final int CAPACITY = 120;
    /** The least time between two samples of one breaker; a read sooner shows the samples as they are. */
    public static final Duration SPACING = Duration.ofSeconds(2);

    private final Map<String, Ring> rings = new ConcurrentHashMap<>();
    private final Clock wallClock;
    private final CallTotals.Source totals;
    private final long spacingMillis = SPACING.toMillis();

    /**
     * @param wallClock the clock that dates the samples (the registry's wall clock)
     * @param totals    where call totals come from, or {@code null}: then samples carry -1 for them
     */
    public BreakerActivity(Clock wallClock, CallTotals.@Nullable Source totals) {
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.totals = totals == null ? breaker -> null : totals;
    }

    /**
     * The history of {@code breaker}, with a new sample of {@code state} and {@code metrics} first if the
     * last one is {@link #SPACING} old or more (or the wall clock went back, which starts it afresh).
     */
    ActivityDescriptor read(CircuitBreaker breaker, State state, BreakerMetrics metrics) {
        Instant now = wallClock.instant().truncatedTo(ChronoUnit.MILLIS); // as every time the endpoint shows
        Ring ring = rings.computeIfAbsent(breaker.getName(), name -> new Ring());
        List<ActivitySample> samples;
        synchronized (ring) {
            ActivitySample last = ring.newest();
            long sinceLast = last == null
                    ? Long.MAX_VALUE
                    : now.toEpochMilli() - last.at().toEpochMilli();
            if (sinceLast < 0) {
                ring.clear();
            }
            if (sinceLast < 0 || sinceLast >= spacingMillis) {
                ring.add(sample(breaker, now, state, metrics));
            }
            samples = ring.oldestFirst();
        }
        return new ActivityDescriptor(now, SPACING, CAPACITY, samples);
    }

    /** Forgets every sample (the test kit does, as it forgets transitions). */
    public void clear() {
        rings.clear();
    }

    private ActivitySample sample(CircuitBreaker breaker, Instant now, State state, BreakerMetrics metrics) {
        CallTotals calls = totals.of(breaker);
        return new ActivitySample(
                now,
                state,
                metrics.failureRate(),
                metrics.slowCallRate(),
                calls == null ? -1 : calls.succeeded(),
                calls == null ? -1 : calls.failed(),
                calls == null ? -1 : calls.slow(),
                calls == null ? -1 : calls.ignored(),
                metrics.notPermittedCalls());
    }

    @Override
    public String toString() {
        return "BreakerActivity{breakers=" + rings.size() + "}";
    }

    /** The last {@link #CAPACITY} samples of one breaker; guarded by its own monitor. */
    private static final class Ring {

        private final ActivitySample[] slots = new ActivitySample[CAPACITY];
        private long written;

        @Nullable
        ActivitySample newest() {
            return written == 0 ? null : slots[(int) ((written - 1) % CAPACITY)];
        }

        void add(ActivitySample sample) {
            slots[(int) (written % CAPACITY)] = sample;
            written++;
        }

        void clear() {
            Arrays.fill(slots, null);
            written = 0;
        }

        List<ActivitySample> oldestFirst() {
            int count = (int) Math.min(written, CAPACITY);
            List<ActivitySample> result = new ArrayList<>(count);
            for (long i = written - count; i < written; i++) {
                result.add(slots[(int) (i % CAPACITY)]);
            }
            return List.copyOf(result);
        }
    }
}
