package io.breaker.spring.cloud.gateway;

import io.breaker.CircuitOpenException;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * How a Gateway route answers a call its breaker rejected, on either server: 503 Service Unavailable,
 * and a {@code Retry-After} header with the whole seconds until the breaker lets a probe through, rounded
 * up and at least 1. The header is left off when the breaker cannot tell (forced open by an operator, or
 * half-open with every probe permit taken).
 */
final class Rejections {

    /** The status of a rejected call. */
    static final int STATUS = 503;

    private Rejections() {}

    /** The {@code Retry-After} value for {@code rejection}, or {@code null} when the wait is unknown. */
    static @Nullable String retryAfter(CircuitOpenException rejection) {
        long seconds = retryAfterSeconds(rejection.getRetryAfterNanos());
        return seconds < 0 ? null : Long.toString(seconds);
    }

    /** Whole seconds for a wait of {@code nanos}, rounded up and at least 1; -1 for an unknown wait (negative). */
    static long retryAfterSeconds(long nanos) {
        if (nanos < 0) {
            return -1;
        }
        long perSecond = TimeUnit.SECONDS.toNanos(1);
        return Math.max(1, nanos / perSecond + (nanos % perSecond == 0 ? 0 : 1));
    }
}
