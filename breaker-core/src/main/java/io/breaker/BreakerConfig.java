package io.breaker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The immutable, validated settings of a breaker. Build one with {@link #builder()}; every setting
 * is checked when it is set, with a message that names the setting, the value and what is allowed.
 *
 * <pre>{@code
 * BreakerConfig config = BreakerConfig.builder()
 *         .slidingWindow(SlidingWindowType.COUNT_BASED, 100)
 *         .minimumNumberOfCalls(10)
 *         .failureRateThreshold(50)
 *         .waitDurationInOpenState(Duration.ofSeconds(30))
 *         .build();
 * }</pre>
 */
public final class BreakerConfig {

    /** Largest count-based window (calls). */
    public static final int MAX_COUNT_WINDOW = 1_000_000;

    /** Largest time-based window (seconds). */
    public static final int MAX_TIME_WINDOW_SECONDS = 3_600;

    private static final BreakerConfig DEFAULTS = new Builder().build();

    private final SlidingWindowType slidingWindowType;
    private final int slidingWindowSize;
    private final int minimumNumberOfCalls;
    private final float failureRateThreshold;
    private final float slowCallRateThreshold;
    private final Duration slowCallDurationThreshold;
    private final Duration waitDurationInOpenState;
    private final int permittedCallsInHalfOpenState;
    private final Duration probeLease;
    private final List<Class<? extends Throwable>> recordExceptions;
    private final List<Class<? extends Throwable>> ignoreExceptions;
    private final Predicate<Throwable> recordFailurePredicate;

    private BreakerConfig(Builder b) {
        this.slidingWindowType = b.slidingWindowType;
        this.slidingWindowSize = b.slidingWindowSize;
        this.minimumNumberOfCalls = b.minimumNumberOfCalls;
        this.failureRateThreshold = b.failureRateThreshold;
        this.slowCallRateThreshold = b.slowCallRateThreshold;
        this.slowCallDurationThreshold = b.slowCallDurationThreshold;
        this.waitDurationInOpenState = b.waitDurationInOpenState;
        this.permittedCallsInHalfOpenState = b.permittedCallsInHalfOpenState;
        this.probeLease = b.probeLease;
        this.recordExceptions = List.copyOf(b.recordExceptions);
        this.ignoreExceptions = List.copyOf(b.ignoreExceptions);
        this.recordFailurePredicate = b.recordFailurePredicate;
    }

    /** The defaults: a count window of 100 calls, 10 calls minimum, 50% failures, 30 s open, 1 probe. */
    public static BreakerConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this config's settings, to derive a variant. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Whether the window counts the last N calls or the last N seconds. */
    public SlidingWindowType getSlidingWindowType() {
        return slidingWindowType;
    }

    /** The window's size: calls for a count-based window, seconds for a time-based one. */
    public int getSlidingWindowSize() {
        return slidingWindowSize;
    }

    /** Calls the window must hold before any rate is evaluated. */
    public int getMinimumNumberOfCalls() {
        return minimumNumberOfCalls;
    }

    /** Failure rate (percent) at or above which the breaker trips. */
    public float getFailureRateThreshold() {
        return failureRateThreshold;
    }

    /** Slow-call rate (percent) at or above which the breaker trips; used only with slow-call detection. */
    public float getSlowCallRateThreshold() {
        return slowCallRateThreshold;
    }

    /** Duration from which a call counts as slow, or {@code null} when slow-call detection is off. */
    public Duration getSlowCallDurationThreshold() {
        return slowCallDurationThreshold;
    }

    /** Whether calls are timed to detect slow ones. */
    public boolean isSlowCallDetectionEnabled() {
        return slowCallDurationThreshold != null;
    }

    /** How long the breaker stays OPEN before it lets a probe through. */
    public Duration getWaitDurationInOpenState() {
        return waitDurationInOpenState;
    }

    /** Probes let through in HALF_OPEN; all of them must succeed to close the breaker. */
    public int getPermittedCallsInHalfOpenState() {
        return permittedCallsInHalfOpenState;
    }

    /** How long a probe may stay unreported before its permit is given to another caller. */
    public Duration getProbeLease() {
        return probeLease;
    }

    /** Exceptions that count as failures (subclasses match); empty means every exception not ignored. */
    public List<Class<? extends Throwable>> getRecordExceptions() {
        return recordExceptions;
    }

    /** Exceptions that count neither as success nor failure (subclasses match); they win over records. */
    public List<Class<? extends Throwable>> getIgnoreExceptions() {
        return ignoreExceptions;
    }

    /** Extra test deciding that an exception counts as a failure, or {@code null}. */
    public Predicate<Throwable> getRecordFailurePredicate() {
        return recordFailurePredicate;
    }

    /**
     * Whether the exception counts as a failure. Ignored exceptions never do. Otherwise, with neither
     * record exceptions nor a predicate configured, every exception does; with either configured, an
     * exception counts when it matches a record exception or the predicate accepts it, and is ignored
     * otherwise. A predicate that throws counts the exception as a failure, and its own exception is
     * added to {@code error} as suppressed.
     */
    public boolean isFailure(Throwable error) {
        for (Class<? extends Throwable> type : ignoreExceptions) {
            if (type.isInstance(error)) {
                return false;
            }
        }
        if (recordExceptions.isEmpty() && recordFailurePredicate == null) {
            return true;
        }
        for (Class<? extends Throwable> type : recordExceptions) {
            if (type.isInstance(error)) {
                return true;
            }
        }
        if (recordFailurePredicate == null) {
            return false;
        }
        try {
            return recordFailurePredicate.test(error);
        } catch (RuntimeException predicateFailure) {
            // A broken predicate must neither replace the call's own error nor leave a half-open
            // permit taken: the call did fail, so it counts, and the error carries the predicate's.
            if (predicateFailure != error) {
                error.addSuppressed(predicateFailure);
            }
            return true;
        }
    }

    @Override
    public String toString() {
        return "BreakerConfig{slidingWindowType=" + slidingWindowType + ", slidingWindowSize=" + slidingWindowSize
                + ", minimumNumberOfCalls=" + minimumNumberOfCalls + ", failureRateThreshold=" + failureRateThreshold
                + ", slowCallRateThreshold=" + slowCallRateThreshold + ", slowCallDurationThreshold="
                + slowCallDurationThreshold + ", waitDurationInOpenState=" + waitDurationInOpenState
                + ", permittedCallsInHalfOpenState=" + permittedCallsInHalfOpenState + ", probeLease=" + probeLease
                + ", recordExceptions=" + recordExceptions + ", ignoreExceptions=" + ignoreExceptions + "}";
    }

    /** Builds a {@link BreakerConfig}; each setter validates its argument at once. */
    public static final class Builder {

        private SlidingWindowType slidingWindowType = SlidingWindowType.COUNT_BASED;
        private int slidingWindowSize = 100;
        private int minimumNumberOfCalls = 10;
        private float failureRateThreshold = 50;
        private float slowCallRateThreshold = 100;
        private Duration slowCallDurationThreshold;
        private Duration waitDurationInOpenState = Duration.ofSeconds(30);
        private int permittedCallsInHalfOpenState = 1;
        private Duration probeLease = Duration.ofSeconds(60);
        private List<Class<? extends Throwable>> recordExceptions = List.of();
        private List<Class<? extends Throwable>> ignoreExceptions = List.of();
        private Predicate<Throwable> recordFailurePredicate;

        private Builder() {
        }

        private Builder(BreakerConfig c) {
            this.slidingWindowType = c.slidingWindowType;
            this.slidingWindowSize = c.slidingWindowSize;
            this.minimumNumberOfCalls = c.minimumNumberOfCalls;
            this.failureRateThreshold = c.failureRateThreshold;
            this.slowCallRateThreshold = c.slowCallRateThreshold;
            this.slowCallDurationThreshold = c.slowCallDurationThreshold;
            this.waitDurationInOpenState = c.waitDurationInOpenState;
            this.permittedCallsInHalfOpenState = c.permittedCallsInHalfOpenState;
            this.probeLease = c.probeLease;
            this.recordExceptions = c.recordExceptions;
            this.ignoreExceptions = c.ignoreExceptions;
            this.recordFailurePredicate = c.recordFailurePredicate;
        }

        /**
         * The window: the last {@code size} calls ({@code COUNT_BASED}, 1 to 1,000,000) or the calls of
         * the last {@code size} seconds ({@code TIME_BASED}, 1 to 3,600).
         */
        public Builder slidingWindow(SlidingWindowType type, int size) {
            Objects.requireNonNull(type, "slidingWindowType must be COUNT_BASED or TIME_BASED, was null");
            int max = type == SlidingWindowType.COUNT_BASED ? MAX_COUNT_WINDOW : MAX_TIME_WINDOW_SECONDS;
            if (size < 1 || size > max) {
                throw new IllegalArgumentException("slidingWindowSize must be in [1, " + max + "] for a " + type
                        + " window, was " + size);
            }
            this.slidingWindowType = type;
            this.slidingWindowSize = size;
            return this;
        }

        /** Calls the window must hold before a rate is evaluated: at least 1 (and for a count window, at most its size). */
        public Builder minimumNumberOfCalls(int calls) {
            if (calls < 1) {
                throw new IllegalArgumentException("minimumNumberOfCalls must be at least 1, was " + calls);
            }
            this.minimumNumberOfCalls = calls;
            return this;
        }

        /** Failure rate, in percent, that trips the breaker: in (0, 100]. */
        public Builder failureRateThreshold(float percent) {
            this.failureRateThreshold = percent("failureRateThreshold", percent);
            return this;
        }

        /** Slow-call rate, in percent, that trips the breaker: in (0, 100]. */
        public Builder slowCallRateThreshold(float percent) {
            this.slowCallRateThreshold = percent("slowCallRateThreshold", percent);
            return this;
        }

        /** A call at least this long counts as slow (positive), or {@code null} to turn slow-call detection off. */
        public Builder slowCallDurationThreshold(Duration threshold) {
            this.slowCallDurationThreshold = threshold == null ? null : positive("slowCallDurationThreshold", threshold);
            return this;
        }

        /** How long to stay OPEN before a probe: positive. */
        public Builder waitDurationInOpenState(Duration wait) {
            this.waitDurationInOpenState = positive("waitDurationInOpenState", wait);
            return this;
        }

        /** Probes let through in HALF_OPEN: 1 to 1,000. */
        public Builder permittedCallsInHalfOpenState(int probes) {
            if (probes < 1 || probes > 1_000) {
                throw new IllegalArgumentException("permittedCallsInHalfOpenState must be in [1, 1000], was " + probes);
            }
            this.permittedCallsInHalfOpenState = probes;
            return this;
        }

        /** How long an unreported probe keeps its permit before another caller may take it: positive. */
        public Builder probeLease(Duration lease) {
            this.probeLease = positive("probeLease", lease);
            return this;
        }

        /** Exceptions that count as failures (subclasses match). */
        @SafeVarargs
        public final Builder recordExceptions(Class<? extends Throwable>... types) {
            return recordExceptions(List.of(types));
        }

        /** Exceptions that count as failures (subclasses match). */
        public Builder recordExceptions(List<Class<? extends Throwable>> types) {
            this.recordExceptions = throwables("recordExceptions", types);
            return this;
        }

        /** Exceptions that count neither as success nor as failure (subclasses match). */
        @SafeVarargs
        public final Builder ignoreExceptions(Class<? extends Throwable>... types) {
            return ignoreExceptions(List.of(types));
        }

        /** Exceptions that count neither as success nor as failure (subclasses match). */
        public Builder ignoreExceptions(List<Class<? extends Throwable>> types) {
            this.ignoreExceptions = throwables("ignoreExceptions", types);
            return this;
        }

        /** An extra test: an exception it accepts counts as a failure; {@code null} removes it. */
        public Builder recordFailurePredicate(Predicate<Throwable> predicate) {
            this.recordFailurePredicate = predicate;
            return this;
        }

        /** The config; checks the settings that depend on each other. */
        public BreakerConfig build() {
            if (slidingWindowType == SlidingWindowType.COUNT_BASED && minimumNumberOfCalls > slidingWindowSize) {
                throw new IllegalArgumentException("minimumNumberOfCalls must be at most slidingWindowSize ("
                        + slidingWindowSize + ") for a COUNT_BASED window, was " + minimumNumberOfCalls);
            }
            return new BreakerConfig(this);
        }

        private static float percent(String setting, float value) {
            if (!(value > 0 && value <= 100)) {
                throw new IllegalArgumentException(setting + " must be in (0, 100], was " + value);
            }
            return value;
        }

        private static Duration positive(String setting, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(setting + " must be a positive duration, was " + value);
            }
            return value;
        }

        private static List<Class<? extends Throwable>> throwables(String setting,
                                                                  List<Class<? extends Throwable>> types) {
            Objects.requireNonNull(types, setting + " must be a list of Throwable classes, was null");
            for (Class<?> type : types) {
                if (type == null || !Throwable.class.isAssignableFrom(type)) {
                    throw new IllegalArgumentException(setting + " must hold Throwable classes, was " + type);
                }
            }
            return List.copyOf(types);
        }
    }
}
