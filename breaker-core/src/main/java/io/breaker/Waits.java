package io.breaker;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/*
 * Waits: how long an automatic move to OPEN (a trip, or a failed probe) keeps the breaker OPEN. The
 * configured wait, times waitMultiplier for each probe that failed since the trip (backoff), capped
 * by maxWaitDurationInOpenState (unset: ten minutes, or the configured wait if that is longer); less
 * a random share of at most waitJitter of it; and, if the failure that opened it says the dependency
 * asked for longer (a Retry-After), the longer of the two, capped the same way.
 *
 * Invariants:
 * - Only a transition asks, with the one failure that made it and the count of failed probes of
 *   the episode: the ordinary call never reaches this class, and a failure that does not open the
 *   breaker is never looked at. A record carries its failure as an argument, so a breaker whose
 *   failures say nothing pays nothing for it.
 * - The wait is fixed when the OPEN phase is built (Phase.probeAtNanos): a later failure never
 *   changes it, since it is not counted in OPEN (see Transitions).
 * - Why an OPEN phase waits as long as it does is marked on the phase by the transition that built
 *   it (Phase.waitReason), not derived from its times: a shared breaker's OPEN phases (the fleet's
 *   reopen time, a probe asked of the store) have times of their own, and jitter shortens a wait.
 * - Jitter only ever shortens the backoff's wait (to between (1 - jitter) and 1 times it), so the
 *   cap holds; it never shortens a Retry-After: a dependency that said when is not probed earlier.
 * - Without backoff and jitter (multiplier 1, jitter 0: the defaults) no random number is drawn.
 * - A resolver or a RetryAfterAware that throws, or says zero or less, is no hint: the breaker opens
 *   for its backoff's wait, whatever the failure's code does.
 */

/** How long the breaker stays OPEN after a trip or a failed probe (see the notes above). */
final class Waits {

    /** Causes looked through for a RetryAfterAware: enough for any wrapping, and never a loop. */
    private static final int MAX_CAUSES = 16;

    private Waits() {}

    /** The configured wait in OPEN, read from the config on the transition paths (a breaker keeps no copy). */
    static long configuredNanos(BreakerConfig config) {
        return config.getWaitDurationInOpenState().toNanos();
    }

    /** The longest a Retry-After or the backoff may make the wait under {@code config}. */
    static Duration max(BreakerConfig config) {
        return config.longestWaitInOpenState();
    }

    /**
     * The wait after {@code failedProbes} failed probes since the trip, before jitter: the configured
     * wait times the multiplier that many times, capped by the max wait.
     */
    static long backoffNanos(BreakerConfig config, int failedProbes) {
        long wait = configuredNanos(config);
        float multiplier = config.getWaitMultiplier();
        if (failedProbes <= 0 || multiplier == 1f) {
            return wait;
        }
        long cap = Math.max(wait, max(config).toNanos());
        double grown = wait * Math.pow(multiplier, failedProbes);
        return grown >= cap ? cap : (long) grown;
    }

    /**
     * How long an OPEN phase built now waits, and why: after {@code failedProbes} failed probes since
     * the trip (0 on a trip), opened by {@code failure} ({@code null}: a slow success, or unknown).
     */
    static Wait after(BreakerConfig config, int failedProbes, @Nullable Object failure) {
        long backoff = backoffNanos(config, failedProbes);
        WaitReason reason = backoff > configuredNanos(config) ? WaitReason.BACKOFF : WaitReason.CONFIGURED;
        long wait = Math.max(1L, backoff - jitterNanos(config, backoff));
        Duration asked = failure == null ? null : asked(config, failure);
        if (asked != null) {
            Duration capped = asked.compareTo(max(config)) > 0 ? max(config) : asked;
            if (capped.toNanos() > wait) {
                return new Wait(capped.toNanos(), WaitReason.RETRY_AFTER);
            }
        }
        return new Wait(wait, reason);
    }

    /** The share of {@code wait} the jitter takes off: a random part of at most waitJitter of it. */
    private static long jitterNanos(BreakerConfig config, long wait) {
        float jitter = config.getWaitJitter();
        if (jitter == 0f) {
            return 0L;
        }
        DoubleSupplier source = config.getJitterSource();
        double random = source != null
                ? source.getAsDouble()
                : ThreadLocalRandom.current().nextDouble();
        if (!(random >= 0d) || random >= 1d) {
            random = 0d; // a broken source takes nothing off rather than a wrong share
        }
        return (long) (wait * (jitter * random));
    }

    /**
     * The wait of {@code open} once {@code after} replaces the settings: the backoff's wait under the
     * new settings (without jitter), or, if a Retry-After made the wait longer, that same wait kept
     * between the new configured wait and the new cap.
     */
    static long retimedNanos(BreakerConfig after, Phase open) {
        long backoff = backoffNanos(after, open.failedProbes);
        if (open.waitReason != WaitReason.RETRY_AFTER) {
            return backoff;
        }
        long asked = Math.min(open.probeAtNanos - open.openedAtNanos, max(after).toNanos());
        return Math.max(backoff, asked);
    }

    /** Why a phase waits {@code waitNanos} after {@code failedProbes} failed probes, with no failure to ask. */
    static WaitReason reasonOf(BreakerConfig config, int failedProbes, long waitNanos) {
        return waitNanos > backoffNanos(config, failedProbes)
                ? WaitReason.RETRY_AFTER
                : waitNanos > configuredNanos(config) ? WaitReason.BACKOFF : WaitReason.CONFIGURED;
    }

    /** A wait in OPEN and why it is that long. */
    record Wait(long nanos, WaitReason reason) {}

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
