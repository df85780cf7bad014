package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeoutException;

import static io.breaker.Breakers.smallWindow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which errors count as failures, which are ignored, and what "ignored" means for the window. */
class FailureClassificationTest {

    private final FakeClock clock = new FakeClock();

    @Test
    void everyExceptionCountsWhenNothingIsConfigured() {
        BreakerConfig config = BreakerConfig.ofDefaults();

        assertThat(config.isFailure(new IOException())).isTrue();
        assertThat(config.isFailure(new IllegalStateException())).isTrue();
        assertThat(config.isFailure(new OutOfMemoryError())).isTrue();
    }

    @Test
    void recordExceptionsMatchSubclassesAndNothingElse() {
        BreakerConfig config = BreakerConfig.builder()
                .recordExceptions(IOException.class, TimeoutException.class)
                .build();

        assertThat(config.isFailure(new IOException())).isTrue();
        assertThat(config.isFailure(new SocketTimeoutException())).isTrue(); // an IOException
        assertThat(config.isFailure(new TimeoutException())).isTrue();
        assertThat(config.isFailure(new IllegalArgumentException())).isFalse();
    }

    @Test
    void ignoreExceptionsMatchSubclassesAndWinOverRecordExceptions() {
        BreakerConfig config = BreakerConfig.builder()
                .recordExceptions(IOException.class)
                .ignoreExceptions(FileNotFoundException.class)
                .build();

        assertThat(config.isFailure(new IOException())).isTrue();
        assertThat(config.isFailure(new FileNotFoundException())).isFalse();
        assertThat(config.isFailure(new FileNotFoundException() {})).isFalse(); // a subclass of the ignored one
    }

    @Test
    void predicateAddsFailuresNotNamedByClass() {
        BreakerConfig config = BreakerConfig.builder()
                .recordExceptions(IOException.class)
                .recordFailurePredicate(error ->
                        error.getMessage() != null && error.getMessage().startsWith("503"))
                .build();

        assertThat(config.isFailure(new IllegalStateException("503 Service Unavailable")))
                .isTrue();
        assertThat(config.isFailure(new IllegalStateException("404 Not Found"))).isFalse();
        assertThat(config.isFailure(new IOException("no message check for recorded classes")))
                .isTrue();
    }

    @Test
    void predicateAloneDecidesWhenNoRecordExceptionsAreGiven() {
        BreakerConfig config = BreakerConfig.builder()
                .recordFailurePredicate(TimeoutException.class::isInstance)
                .build();

        assertThat(config.isFailure(new TimeoutException())).isTrue();
        assertThat(config.isFailure(new IOException())).isFalse();
    }

    @Test
    void ignoredExceptionsCountNeitherAsSuccessNorAsFailure() {
        BreakerConfig config =
                smallWindow().ignoreExceptions(IllegalArgumentException.class).build();
        RecordingListener listener = new RecordingListener();
        CircuitBreaker breaker = CircuitBreaker.of("search", config, clock);
        breaker.addListener(listener);

        for (int i = 0; i < 20; i++) {
            assertThatThrownBy(() -> breaker.execute(() -> {
                        throw new IllegalArgumentException("our own bad request");
                    }))
                    .isInstanceOf(IllegalArgumentException.class);
        }

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(breaker.getMetrics())
                .extracting(BreakerMetrics::calls, BreakerMetrics::failedCalls)
                .containsExactly(0, 0);
        assertThat(listener.outcomes).hasSize(20).containsOnly(CallOutcome.IGNORED);
        assertThat(breaker.getLastFailureType()).isNull();
    }

    @Test
    void unrecordedExceptionsThroughTheTwoStepApiAreIgnoredToo() {
        CircuitBreaker breaker = CircuitBreaker.of(
                "search", smallWindow().recordExceptions(IOException.class).build(), clock);

        for (int i = 0; i < 10; i++) {
            long permit = breaker.tryAcquirePermit();
            assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
            breaker.onError(permit, 0L, new IllegalStateException());
        }

        assertThat(breaker.getMetrics().calls()).isZero();
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void predicateIsAskedOncePerFailedCall() {
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        BreakerConfig config = smallWindow()
                .recordFailurePredicate(error -> {
                    asked.incrementAndGet();
                    return true;
                })
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("search", config, clock);

        breaker.onError(breaker.tryAcquirePermit(), 0L, new IOException());
        assertThatThrownBy(() -> breaker.run(() -> {
                    throw new IllegalStateException();
                }))
                .isInstanceOf(IllegalStateException.class);

        assertThat(asked).hasValue(2);
    }

    @Test
    void predicateThatThrowsDoesNotHideTheCallsErrorNorLeakAProbePermit() {
        BreakerConfig config = smallWindow()
                .recordExceptions(IOException.class)
                .recordFailurePredicate(error -> {
                    throw new IllegalStateException("broken predicate");
                })
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("search", config, clock);
        Breakers.trip(breaker);
        clock.advance(Breakers.WAIT);

        assertThatThrownBy(() -> breaker.run(() -> {
                    throw new IllegalArgumentException("the call's own error");
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the call's own error")
                .satisfies(error -> assertThat(error.getSuppressed()).hasSize(1));

        // Counted as a failed probe (the call did fail): the breaker is not stuck in HALF_OPEN.
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }
}
