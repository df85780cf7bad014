package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleSupplier;

import static io.breaker.Breakers.WAIT;
import static io.breaker.Breakers.smallWindow;
import static io.breaker.Breakers.trip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Failed probes make the next wait longer (wait-multiplier), jitter spreads the waits, a close resets. */
class BackoffTest {

    private final FakeClock clock = new FakeClock();

    private CircuitBreaker breaker(BreakerConfig config) {
        return CircuitBreaker.of("wholesaler", config, clock);
    }

    /** Moves to the probe time, takes the probe and fails it; returns the wait of the OPEN that follows. */
    private Duration failProbe(CircuitBreaker breaker) {
        clock.advance(Duration.ofNanos(breaker.getRemainingWaitNanos()));
        long probe = breaker.tryAcquirePermit();
        assertThat(probe).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onError(probe, 0L, new IOException("still down"));
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        return Duration.ofNanos(breaker.getRemainingWaitNanos());
    }

    @Test
    void eachFailedProbeMultipliesTheNextWaitUpToTheMax() {
        CircuitBreaker breaker = breaker(smallWindow()
                .waitMultiplier(2)
                .maxWaitDurationInOpenState(Duration.ofSeconds(50))
                .build());
        trip(breaker);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(WAIT.toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);

        List<Duration> waits = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            waits.add(failProbe(breaker));
            assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.BACKOFF);
        }

        assertThat(waits)
                .containsExactly(
                        Duration.ofSeconds(20), Duration.ofSeconds(40), Duration.ofSeconds(50), Duration.ofSeconds(50));
    }

    @Test
    void theProbeIsRejectedUntilTheGrownWaitHasElapsed() {
        CircuitBreaker breaker = breaker(smallWindow().waitMultiplier(3).build());
        trip(breaker);
        failProbe(breaker); // the next wait is 30 s

        clock.advance(Duration.ofSeconds(30).minusNanos(1));
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        clock.advance(Duration.ofNanos(1));
        assertThat(breaker.tryAcquirePermit()).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void aCloseStartsTheBackoffAgain() {
        CircuitBreaker breaker = breaker(smallWindow().waitMultiplier(2).build());
        trip(breaker);
        failProbe(breaker);
        failProbe(breaker); // 40 s
        clock.advance(Duration.ofNanos(breaker.getRemainingWaitNanos()));
        long probe = breaker.tryAcquirePermit();
        breaker.onSuccess(probe, 0L);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);

        trip(breaker);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(WAIT.toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
        assertThat(failProbe(breaker)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void anOperatorsReleaseStartsTheBackoffAgain() {
        CircuitBreaker breaker = breaker(smallWindow().waitMultiplier(2).build());
        trip(breaker);
        failProbe(breaker);
        breaker.release();

        trip(breaker);
        assertThat(failProbe(breaker)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void withoutAMultiplierEveryWaitIsTheConfiguredOne() {
        CircuitBreaker breaker = breaker(smallWindow().build());
        trip(breaker);
        assertThat(failProbe(breaker)).isEqualTo(WAIT);
        assertThat(failProbe(breaker)).isEqualTo(WAIT);
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
    }

    @Test
    void jitterTakesARandomShareOffEachWait() {
        double[] draws = {0.5, 0.0, 0.75};
        int[] next = {0};
        DoubleSupplier source = () -> draws[next[0]++];
        CircuitBreaker breaker = breaker(smallWindow()
                .waitMultiplier(2)
                .waitJitter(0.25f)
                .jitterSource(source)
                .build());

        trip(breaker);
        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofMillis(8_750).toNanos()); // 10 s less 0.25 * 0.5 of it
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.CONFIGURED);
        assertThat(failProbe(breaker)).isEqualTo(Duration.ofSeconds(20)); // nothing taken off
        assertThat(failProbe(breaker)).isEqualTo(Duration.ofMillis(32_500)); // 40 s less 0.25 * 0.75 of it
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.BACKOFF);
    }

    @Test
    void jitterSpreadsBreakersThatOpenedTogetherWithinItsBound() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        BreakerConfig config =
                smallWindow().waitJitter(0.5f).jitterSource(random::nextDouble).build();
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            CircuitBreaker breaker = breaker(config);
            trip(breaker);
            waits.add(breaker.getRemainingWaitNanos());
        }
        assertThat(waits)
                .as("seed %d", seed)
                .allSatisfy(wait -> assertThat(wait).isBetween(WAIT.toNanos() / 2, WAIT.toNanos()));
        assertThat(waits.stream().distinct().count()).as("seed %d", seed).isGreaterThan(40);
    }

    @Test
    void aRetryAfterLongerThanTheBackoffWins() {
        CircuitBreaker breaker = breaker(smallWindow().waitMultiplier(2).build());
        trip(breaker);
        clock.advance(WAIT);
        long probe = breaker.tryAcquirePermit();
        breaker.onError(probe, 0L, new RetryAfterTest.Unavailable(Duration.ofSeconds(90)));

        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(90).toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);
        // The backoff still counts that failed probe: the next one waits 10 s * 2^2.
        assertThat(failProbe(breaker)).isEqualTo(Duration.ofSeconds(40));
    }

    @Test
    void jitterNeverShortensARetryAfter() {
        CircuitBreaker breaker =
                breaker(smallWindow().waitJitter(1f).jitterSource(() -> 0.9).build());
        trip(breaker);
        clock.advance(Duration.ofNanos(breaker.getRemainingWaitNanos()));
        long probe = breaker.tryAcquirePermit();
        breaker.onError(probe, 0L, new RetryAfterTest.Unavailable(Duration.ofSeconds(5)));

        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(5).toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.RETRY_AFTER);
    }

    @Test
    void theTransitionCarriesItsOwnWaitAndReason() {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker breaker = breaker(smallWindow().waitMultiplier(2).build());
        breaker.addListener(listener);
        trip(breaker);
        failProbe(breaker);
        clock.advance(Duration.ofNanos(breaker.getRemainingWaitNanos()));
        breaker.onSuccess(breaker.tryAcquirePermit(), 0L); // closed: the breaker's own reason is gone

        List<Transition> intoOpen =
                listener.transitions.stream().filter(t -> t.to() == State.OPEN).toList();
        assertThat(intoOpen)
                .extracting(Transition::waitReason)
                .containsExactly(WaitReason.CONFIGURED, WaitReason.BACKOFF);
        assertThat(intoOpen).extracting(Transition::waitDuration).containsExactly(WAIT, Duration.ofSeconds(20));
        assertThat(listener.transitions).filteredOn(t -> t.to() != State.OPEN).allSatisfy(t -> {
            assertThat(t.waitDuration()).isNull();
            assertThat(t.waitReason()).isNull();
        });
    }

    @Test
    void aNewMultiplierRetimesAnOpenBreakerFromItsTrip() {
        CircuitBreaker breaker = breaker(smallWindow().waitMultiplier(2).build());
        trip(breaker);
        failProbe(breaker); // 20 s from now
        breaker.reconfigure(breaker.getConfig().toBuilder().waitMultiplier(3).build());

        assertThat(breaker.getRemainingWaitNanos())
                .isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(breaker.getWaitReason()).isEqualTo(WaitReason.BACKOFF);
    }

    @Test
    void settingsOutOfRangeAreRefusedNamingThemAndWhatIsAllowed() {
        assertThatThrownBy(() -> BreakerConfig.builder().waitMultiplier(0.5f))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("waitMultiplier")
                .hasMessageContaining("[1, 100]");
        assertThatThrownBy(() -> BreakerConfig.builder().waitJitter(1.5f))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("waitJitter")
                .hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> BreakerConfig.builder().waitJitter(Float.NaN))
                .isInstanceOf(InvalidSettingException.class);
    }
}
