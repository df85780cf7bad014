package io.breaker;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/*
 * Waits: how long an automatic move to OPEN (a trip, or a failed probe) keeps the breaker OPEN. The
 * configured wait, unless the failure that opened it says the dependency asked for longer (a
 * Retry-After): then the longer of the two, capped by maxWaitDurationInOpenState (unset: ten minutes,
 * or the configured wait if that is longer).
 *
 * Invariants:
 * - Only a transition asks, with the one failure that made it: the ordinary call never reaches this
 *   class, and a failure that does not open the breaker is never looked at. A record carries its
 *   failure as an argument, so a breaker whose failures say nothing pays nothing for it.
 * - The wait is fixed when the OPEN phase is built (Phase.probeAtNanos): a later failure never
 *   changes it, since it is not counted in OPEN (see Transitions).
 * - Why an OPEN phase waits longer than configured is marked on the phase by the transition that
 *   built it (Phase.waitsForRetryAfter), not derived from its times: a shared breaker's OPEN phases
 *   (the fleet's reopen time, a probe asked of the store) have times of their own.
 * - A resolver or a RetryAfterAware that throws, or says zero or less, is no hint: the breaker opens
 *   for its configured wait, whatever the failure's code does.
 */

/** How long the breaker stays OPEN after a trip or a failed probe (see the notes above). */
final class Waits {

    /** The cap when maxWaitDurationInOpenState is unset (unless the configured wait is longer). */
    static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(10);

    /** Causes looked through for a RetryAfterAware: enough for any wrapping, and never a loop. */
    private static final int MAX_CAUSES = 16;

    private Waits() {}

    /** The configured wait in OPEN, read from the config on the transition paths (a breaker keeps no copy). */
    static long configuredNanos(BreakerConfig config) {
        return config.getWaitDurationInOpenState().toNanos();
    }

    /** The longest wait a Retry-After may ask for under {@code config}. */
    static Duration max(BreakerConfig config) {
        Duration set = config.getMaxWaitDurationInOpenState();
        if (set != null) {
            return set;
        }
        Duration wait = config.getWaitDurationInOpenState();
        return wait.compareTo(DEFAULT_MAX_WAIT) > 0 ? wait : DEFAULT_MAX_WAIT;
    }

    /** The wait in OPEN after {@code failure} opened the breaker ({@code null}: a slow success, or unknown). */
    static long afterNanos(BreakerConfig config, @Nullable Object failure) {
        long wait = configuredNanos(config);
        if (failure == null) {
            return wait;
        }
        Duration asked = asked(config, failure);
        if (asked == null) {
            return wait;
        }
        Duration capped = asked.compareTo(max(config)) > 0 ? max(config) : asked;
        return Math.max(wait, capped.toNanos());
    }

    /**
     * The wait of {@code open} once {@code after} replaces the settings: the new configured wait, or,
     * if a Retry-After made the wait longer, that same wait kept between the new configured wait and
     * the new cap.
     */
    static long retimedNanos(BreakerConfig after, Phase open) {
        long configured = configuredNanos(after);
        if (!open.waitsForRetryAfter) {
            return configured;
        }
        long asked = Math.min(open.probeAtNanos - open.openedAtNanos, max(after).toNanos());
        return Math.max(configured, asked);
    }

    /** What the failure says the dependency asked for, or null: the resolver first, then RetryAfterAware. */
    static @Nullable Duration asked(BreakerConfig config, Object failure) {
        RetryAfterResolver resolver = config.getRetryAfterResolver();
        if (resolver != null) {
            Duration resolved = positive(() -> resolver.retryAfter(failure));
            if (resolved != null) {
                return resolved;
            }
        }
        Object at = failure;
        for (int i = 0; i < MAX_CAUSES && at != null; i++) {
            if (at instanceof RetryAfterAware aware) {
                Duration said = positive(aware::retryAfter);
                if (said != null) {
                    return said;
                }
            }
            at = at instanceof Throwable error && error.getCause() != error ? error.getCause() : null;
        }
        return null;
    }

    private static @Nullable Duration positive(Supplier<Optional<Duration>> hint) {
        try {
            Optional<Duration> said = hint.get();
            @Nullable Duration value = said == null ? null : said.orElse(null);
            return value == null || value.isNegative() || value.isZero() ? null : value;
        } catch (RuntimeException broken) {
            return null;
        }
    }
}
