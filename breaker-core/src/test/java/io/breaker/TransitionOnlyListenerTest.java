package io.breaker;

import io.breaker.internal.Integration;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A listener that wants no call durations does not make the breaker read the clock around calls. */
class TransitionOnlyListenerTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("wholesaler", BreakerConfig.ofDefaults(), clock);

    @Test
    void aTransitionOnlyListenerLeavesCallsUntimed() {
        List<Transition> seen = new ArrayList<>();
        breaker.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                seen.add(transition);
            }

            @Override
            public boolean wantsCallDurations() {
                return false;
            }
        });

        breaker.execute(() -> "ok");
        breaker.forceOpen();

        assertThat(clock.reads()).isZero();
        assertThat(Integration.isTimingCalls(breaker)).isFalse();
        assertThat(seen).extracting(Transition::to).containsExactly(State.FORCED_OPEN);
    }

    @Test
    void aListenerThatWantsDurationsGetsThemAndTimingStopsWhenItIsRemoved() {
        List<Long> durations = new ArrayList<>();
        BreakerListener timing = new BreakerListener() {
            @Override
            public void onCallRecorded(CircuitBreaker b, CallOutcome outcome, long durationNanos) {
                durations.add(durationNanos);
            }
        };
        breaker.addListener(timing);

        breaker.execute(() -> clock.advanceMillis(7));

        assertThat(durations).containsExactly(7_000_000L);
        assertThat(Integration.isTimingCalls(breaker)).isTrue();

        breaker.removeListener(timing);
        long readsBefore = clock.reads();
        breaker.execute(() -> "ok");

        assertThat(Integration.isTimingCalls(breaker)).isFalse();
        assertThat(clock.reads()).isEqualTo(readsBefore);
    }
}
