package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.metrics.BreakerCallCounts;
import io.breaker.spring.metrics.BreakerMeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's history, without Spring: sampled by reads only, bounded, and fed by the meters. */
class BreakerActivityTest {

    private static final Instant START = Instant.parse("2026-12-02T10:00:00Z");

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Clock wall = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return START.plusNanos(nanos.get() - 1_000_000_000L);
        }
    };
    private final BreakerConfig config = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
            .minimumNumberOfCalls(4)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(30))
            .ignoreExceptions(IllegalArgumentException.class)
            .build();
    private final BreakerRegistry registry = BreakerRegistry.of(config, Map.of(), nanos::get, wall, null);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final BreakerCallCounts calls = new BreakerCallCounts(() -> meters);
    private final BreakerActivity activity = new BreakerActivity(wall, breaker -> {
        long[] counts = calls.of(breaker.getName());
        return counts == null
                ? null
                : new CallTotals(counts[0], counts[3] + counts[4], counts[1] + counts[2], counts[5]);
    });
    private final BreakerOperations operations =
            new BreakerOperations(registry, BreakerTransitionHistory.bind(registry, 10), null, activity);

    BreakerActivityTest() {
        new BreakerMeterBinder(registry).bindTo(meters);
    }

    @Test
    void takesASampleAtAReadOnlyWhenTheLastIsASpacingOld() {
        CircuitBreaker breaker = registry.breaker("wholesaler");

        assertThat(samples()).hasSize(1);
        advance(BreakerActivity.SPACING.minusMillis(1));
        assertThat(samples()).as("read too soon: no new sample").hasSize(1);
        advance(Duration.ofMillis(1));
        List<ActivitySample> samples = samples();

        assertThat(samples).extracting(ActivitySample::at).containsExactly(START, START.plus(BreakerActivity.SPACING));
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void keepsTheLastCapacitySamplesOldestFirst() {
        registry.breaker("wholesaler");
        int reads = BreakerActivity.CAPACITY + 7;
        for (int i = 0; i < reads; i++) {
            samples();
            advance(BreakerActivity.SPACING);
        }

        List<ActivitySample> samples = samples(); // one more read, one more sample
        assertThat(samples).hasSize(BreakerActivity.CAPACITY);
        assertThat(samples.get(0).at()).isEqualTo(START.plus(BreakerActivity.SPACING.multipliedBy(8)));
        assertThat(samples.get(samples.size() - 1).at())
                .isEqualTo(START.plus(BreakerActivity.SPACING.multipliedBy(reads)));
    }

    @Test
    void eachSampleCarriesTheCallTotalsByOutcomeTheStateAndTheRejections() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        samples();
        breaker.execute(() -> "ok");
        ignored(breaker);
        for (int i = 0; i < 3; i++) {
            fail(breaker);
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        advance(BreakerActivity.SPACING);

        BreakerDescriptor descriptor = operations.describe("wholesaler").orElseThrow();

        ActivitySample first = descriptor.activity().samples().get(0);
        ActivitySample last = descriptor.activity().samples().get(1);
        assertThat(first.state()).isEqualTo(State.CLOSED);
        assertThat(List.of(first.succeeded(), first.failed(), first.slow(), first.ignored(), first.rejected()))
                .containsExactly(0L, 0L, 0L, 0L, 0L);
        assertThat(last.state()).isEqualTo(State.OPEN);
        assertThat(List.of(last.succeeded(), last.failed(), last.slow(), last.ignored(), last.rejected()))
                .containsExactly(1L, 3L, 0L, 1L, 2L);
        assertThat(last.failureRate()).isEqualTo(75f);
        assertThat(descriptor.activity().at()).isEqualTo(last.at());
        assertThat(descriptor.activity().capacity()).isEqualTo(BreakerActivity.CAPACITY);
    }

    @Test
    void withoutMetersTheTotalsAreMinusOneAndTheRestIsThere() {
        BreakerActivity bare = new BreakerActivity(wall, null);
        CircuitBreaker breaker = registry.breaker("wholesaler");
        fail(breaker);

        ActivitySample sample = bare.read(breaker, breaker.getState(), breaker.getMetrics())
                .samples()
                .get(0);

        assertThat(List.of(sample.succeeded(), sample.failed(), sample.slow(), sample.ignored()))
                .containsOnly(-1L);
        assertThat(sample.rejected()).isZero();
        assertThat(sample.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void aWallClockThatWentBackStartsTheHistoryAfresh() {
        registry.breaker("wholesaler");
        advance(Duration.ofMinutes(1));
        samples();
        nanos.addAndGet(-Duration.ofSeconds(30).toNanos());

        assertThat(samples()).extracting(ActivitySample::at).containsExactly(START.plusSeconds(30));
    }

    private List<ActivitySample> samples() {
        return operations.describe("wholesaler").orElseThrow().activity().samples();
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    private static void fail(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        breaker.onError(permit, 0, new IOException("boom"));
    }

    private static void ignored(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        breaker.onError(permit, 0, new IllegalArgumentException("not an outage"));
    }
}
