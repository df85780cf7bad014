package io.breaker.spring.logging;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.RetryAfterAware;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The key=value lines a log alert matches. */
@ExtendWith(OutputCaptureExtension.class)
class BreakerTransitionLoggerTest {

    private final AtomicLong nanos = new AtomicLong();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 5)
                    .minimumNumberOfCalls(5)
                    .failureRateThreshold(50)
                    .slowCallDurationThreshold(Duration.ofSeconds(1))
                    .slowCallRateThreshold(80)
                    .waitDurationInOpenState(Duration.ofSeconds(10))
                    .build(),
            Map.of(),
            nanos::get);

    @Test
    void aTripToOpenIsOneWarnLineWithEveryField(CapturedOutput output) {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        BreakerTransitionLogger.bind(registry);

        record(breaker, 10, null);
        record(breaker, 1500, null);
        record(breaker, 10, new SocketTimeoutException());
        record(breaker, 10, new IllegalStateException());
        record(breaker, 10, new SocketTimeoutException());

        assertThat(output.getOut()).containsOnlyOnce("to=OPEN");
        assertThat(output.getOut())
                .containsPattern("WARN .*" + BreakerTransitionLogger.LOGGER_NAME.replace(".", "\\.")
                        + ".*breaker=wholesaler from=CLOSED to=OPEN cause=FAILURE_RATE failureRate=60\\.0 "
                        + "slowCallRate=20\\.0 threshold=50\\.0 callsInWindow=5 "
                        + "lastFailureType=java\\.net\\.SocketTimeoutException waitReason=CONFIGURED wait=PT10S");
    }

    @Test
    void aTripOnAFailureThatAskedForLongerSaysWhyTheWaitIsLonger(CapturedOutput output) {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        BreakerTransitionLogger.bind(registry);

        record(breaker, 10, null);
        record(breaker, 10, null);
        record(breaker, 10, new SocketTimeoutException());
        record(breaker, 10, new SocketTimeoutException());
        record(breaker, 10, new Busy());

        assertThat(output.getOut())
                .contains("breaker=wholesaler from=CLOSED to=OPEN cause=FAILURE_RATE failureRate=60.0 slowCallRate=0.0 "
                        + "threshold=50.0 callsInWindow=5 lastFailureType=" + Busy.class.getName()
                        + " waitReason=RETRY_AFTER wait=PT2M");
    }

    @Test
    void aReopeningAfterFailedProbesSaysTheWaitGrewByBackoff(CapturedOutput output) {
        BreakerRegistry backingOff = BreakerRegistry.of(
                registry.getDefaultConfig().toBuilder().waitMultiplier(2).build(), Map.of(), nanos::get);
        BreakerTransitionLogger.bind(backingOff);
        CircuitBreaker breaker = backingOff.breaker("wholesaler");
        for (int i = 0; i < 5; i++) {
            record(breaker, 10, new SocketTimeoutException());
        }
        for (int probe = 0; probe < 2; probe++) {
            nanos.addAndGet(breaker.getRemainingWaitNanos());
            record(breaker, 10, new SocketTimeoutException());
        }

        assertThat(output.getOut())
                .containsPattern("WARN .*from=HALF_OPEN to=OPEN cause=PROBE_FAILED .*"
                        + "lastFailureType=java\\.net\\.SocketTimeoutException waitReason=BACKOFF wait=PT20S\\R")
                .containsPattern("cause=PROBE_FAILED .* waitReason=BACKOFF wait=PT40S\\R");
    }

    @Test
    void theLineSaysTheWaitOfItsOwnTransitionWhateverTheBreakerDoesSince(CapturedOutput output) {
        CircuitBreaker breaker = registry.breaker("wholesaler"); // CLOSED, with no wait of its own
        Transition told = new Transition(
                "wholesaler",
                State.HALF_OPEN,
                State.OPEN,
                TransitionCause.PROBE_FAILED,
                Instant.EPOCH,
                breaker.getMetrics(),
                null,
                Duration.ofMinutes(2),
                WaitReason.RETRY_AFTER);

        new BreakerTransitionLogger().onTransition(breaker, told);

        assertThat(output.getOut()).contains("lastFailureType=none waitReason=RETRY_AFTER wait=PT2M");
    }

    /** A client's exception that carries the server's Retry-After. */
    static final class Busy extends RuntimeException implements RetryAfterAware {
        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(Duration.ofMinutes(2));
        }
    }

    @Test
    void aSlowCallTripNamesTheSlowCallThreshold(CapturedOutput output) {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        BreakerTransitionLogger.bind(registry);

        for (int i = 0; i < 5; i++) {
            record(breaker, 2000, null);
        }

        assertThat(output.getOut())
                .contains("breaker=wholesaler from=CLOSED to=OPEN cause=SLOW_CALL_RATE "
                        + "failureRate=0.0 slowCallRate=100.0 threshold=80.0 callsInWindow=5 lastFailureType=none");
    }

    @Test
    void probingAndClosingAreInfoLines(CapturedOutput output) {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        BreakerTransitionLogger.bind(registry);
        for (int i = 0; i < 5; i++) {
            record(breaker, 10, new SocketTimeoutException());
        }

        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        record(breaker, 10, null);

        assertThat(output.getOut())
                .containsPattern("INFO .*breaker=wholesaler from=OPEN to=HALF_OPEN cause=WAIT_ELAPSED ");
        assertThat(output.getOut())
                .containsPattern("INFO .*breaker=wholesaler from=HALF_OPEN to=CLOSED cause=PROBES_SUCCEEDED ");
    }

    @Test
    void aForcedOpenIsAWarnLineWithTheOperatorCause(CapturedOutput output) {
        BreakerTransitionLogger.bind(registry);

        registry.breaker("payments").forceOpen();

        assertThat(output.getOut())
                .containsPattern("WARN .*breaker=payments from=CLOSED to=FORCED_OPEN cause=OPERATOR ");
    }

    private static void record(CircuitBreaker breaker, long millis, Exception error) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        long nanos = Duration.ofMillis(millis).toNanos();
        if (error == null) {
            breaker.onSuccess(permit, nanos);
        } else {
            breaker.onError(permit, nanos, error);
        }
    }
}
