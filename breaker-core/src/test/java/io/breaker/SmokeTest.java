package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SmokeTest {

    @Test
    void fullCycle() {
        AtomicLong now = new AtomicLong();
        CircuitBreaker b = CircuitBreaker.of("x", BreakerConfig.builder().slidingWindow(SlidingWindowType.COUNT_BASED, 10)
                .minimumNumberOfCalls(4).waitDurationInOpenState(Duration.ofSeconds(5)).build(), now::get);
        for (int i = 0; i < 2; i++) b.execute(() -> 1);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> b.execute(() -> { throw new IllegalStateException(); })).isInstanceOf(IllegalStateException.class);
        }
        assertThat(b.getState()).isEqualTo(State.OPEN);
        assertThatThrownBy(() -> b.execute(() -> 1)).isInstanceOf(CircuitOpenException.class)
                .hasMessageContaining("'x'").hasMessageContaining("5000 ms");
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(b.tryAcquirePermission()).isTrue();
        assertThat(b.getState()).isEqualTo(State.HALF_OPEN);
        assertThat(b.tryAcquirePermission()).isFalse();
        b.onSuccess(0);
        assertThat(b.getState()).isEqualTo(State.CLOSED);
        assertThat(b.getMetrics().calls()).isZero();
        assertThat(b.getMetrics().notPermittedCalls()).isEqualTo(2);
    }

    @Test
    void timeWindow() {
        AtomicLong now = new AtomicLong(123);
        CircuitBreaker b = CircuitBreaker.of("t", BreakerConfig.builder().slidingWindow(SlidingWindowType.TIME_BASED, 3)
                .minimumNumberOfCalls(3).build(), now::get);
        b.onError(0, new IOException());
        b.onError(0, new IOException());
        assertThat(b.getMetrics().failedCalls()).isEqualTo(2);
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        assertThat(b.getMetrics().calls()).isZero();
        b.onError(0, new IOException());
        b.onSuccess(0);
        b.onSuccess(0);
        assertThat(b.getState()).isEqualTo(State.CLOSED);
        b.onError(0, new IOException());
        assertThat(b.getState()).isEqualTo(State.OPEN);
    }
}
