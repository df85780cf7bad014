package io.breaker.spring.cloud.gateway;

import io.breaker.CircuitOpenException;
import io.breaker.State;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class RejectionsTest {

    @Test
    void retryAfterIsTheWaitInWholeSecondsRoundedUpAndAtLeastOne() {
        assertThat(Rejections.retryAfterSeconds(TimeUnit.SECONDS.toNanos(30))).isEqualTo(30);
        assertThat(Rejections.retryAfterSeconds(TimeUnit.SECONDS.toNanos(30) + 1))
                .isEqualTo(31);
        assertThat(Rejections.retryAfterSeconds(TimeUnit.MILLISECONDS.toNanos(19_500)))
                .isEqualTo(20);
        assertThat(Rejections.retryAfterSeconds(1)).isEqualTo(1);
        assertThat(Rejections.retryAfterSeconds(0)).isEqualTo(1);
    }

    @Test
    void anUnknownWaitGivesNoHeader() {
        assertThat(Rejections.retryAfterSeconds(-1)).isEqualTo(-1);
        assertThat(Rejections.retryAfter(new CircuitOpenException("backend", State.FORCED_OPEN, -1)))
                .isNull();
        assertThat(Rejections.retryAfter(new CircuitOpenException("backend", State.OPEN, TimeUnit.SECONDS.toNanos(2))))
                .isEqualTo("2");
    }
}
