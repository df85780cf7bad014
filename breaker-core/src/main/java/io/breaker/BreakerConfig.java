package io.breaker;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleSupplier;
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

    /** Most probes a half-open breaker lets through at once. */
    public static final int MAX_PERMITTED_CALLS_IN_HALF_OPEN_STATE = 1_000;

    /** Longest duration a setting accepts: about 292 years, the most a {@code long} of nanoseconds holds. */
    public static final Duration MAX_DURATION = Duration.ofDays(106_751);

    /** The cap of a wait in OPEN when maxWaitDurationInOpenState is unset (unless the wait is longer). */
    private static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(10);

    private static final String DURATION = "a positive duration of at most 106751d (about 292 years)";

    // ---------------------------------------------------------------- the settings, each defined once

    /** Whether the window counts the last N calls or the calls of the last N seconds. */
    public static final Setting<SlidingWindowType> SLIDING_WINDOW_TYPE = new Setting<>(
            "slidingWindowType",
            SlidingWindowType.class,
            SlidingWindowType.COUNT_BASED,
            "COUNT_BASED or TIME_BASED",
            "Whether the window holds the last N calls (COUNT_BASED) or the calls of the last N seconds (TIME_BASED).",
            Objects::nonNull,
            BreakerConfig::getSlidingWindowType,
            Builder::slidingWindowType);

    /** The window's size: calls for a count-based window, seconds for a time-based one. */
    public static final Setting<Integer> SLIDING_WINDOW_SIZE = new Setting<>(
            "slidingWindowSize",
            Integer.class,
            100,
            "a whole number in [1, " + MAX_COUNT_WINDOW + "] (calls) for a COUNT_BASED window or in [1, "
                    + MAX_TIME_WINDOW_SECONDS + "] (seconds) for a TIME_BASED window",
            "Size of the window: a number of calls for COUNT_BASED, a number of seconds for TIME_BASED.",
            size -> size >= 1 && size <= MAX_COUNT_WINDOW,
            BreakerConfig::getSlidingWindowSize,
            Builder::slidingWindowSize);

    /** Calls the window must hold before a rate is evaluated. */
    public static final Setting<Integer> MINIMUM_NUMBER_OF_CALLS = new Setting<>(
            "minimumNumberOfCalls",
            Integer.class,
            10,
            "a whole number of at least 1 (for a COUNT_BASED window, at most slidingWindowSize)",
            "Calls the window must hold before a failure or slow-call rate is evaluated.",
            calls -> calls >= 1,
            BreakerConfig::getMinimumNumberOfCalls,
            Builder::minimumNumberOfCalls);

    /** Failure rate (percent) at or above which the breaker trips. */
    public static final Setting<Float> FAILURE_RATE_THRESHOLD = new Setting<>(
            "failureRateThreshold",
            Float.class,
            50f,
            "a number in (0, 100]",
            "Percentage of failed calls in the window at or above which the breaker opens.",
            BreakerConfig::isPercent,
            BreakerConfig::getFailureRateThreshold,
            Builder::failureRateThreshold);

    /** Slow-call rate (percent) at or above which the breaker trips. */
    public static final Setting<Float> SLOW_CALL_RATE_THRESHOLD = new Setting<>(
            "slowCallRateThreshold",
            Float.class,
            100f,
            "a number in (0, 100]",
            "Percentage of slow calls in the window at or above which the breaker opens (with slow-call detection on).",
            BreakerConfig::isPercent,
            BreakerConfig::getSlowCallRateThreshold,
            Builder::slowCallRateThreshold);

    /** Duration from which a call counts as slow; none turns slow-call detection off. */
    public static final Setting<@Nullable Duration> SLOW_CALL_DURATION_THRESHOLD = new Setting<>(
            "slowCallDurationThreshold",
            Duration.class,
            null,
            DURATION + ", or none to turn slow-call detection off",
            "Duration from which a call counts as slow; unset turns slow-call detection off.",
            threshold -> threshold == null || isDuration(threshold),
            BreakerConfig::getSlowCallDurationThreshold,
            Builder::slowCallDurationThreshold);

    /** How long the breaker stays OPEN before it lets a probe through. */
    public static final Setting<Duration> WAIT_DURATION_IN_OPEN_STATE = new Setting<>(
            "waitDurationInOpenState",
            Duration.class,
            Duration.ofSeconds(30),
            DURATION,
            "How long the breaker stays open before it lets a probe through.",
            BreakerConfig::isDuration,
            BreakerConfig::getWaitDurationInOpenState,
            Builder::waitDurationInOpenState);

    /**
     * The longest a dependency's Retry-After, or the backoff of failed probes, may keep the breaker
     * OPEN; unset: ten minutes, or
     * {@link #WAIT_DURATION_IN_OPEN_STATE} if that is longer.
     */
    public static final Setting<@Nullable Duration> MAX_WAIT_DURATION_IN_OPEN_STATE = new Setting<>(
            "maxWaitDurationInOpenState",
            Duration.class,
            null,
            DURATION + ", at least waitDurationInOpenState; or none for 10 minutes (or waitDurationInOpenState if"
                    + " longer)",
            "The longest a failure's Retry-After or the backoff of failed probes may keep the breaker open; unset"
                    + " means 10 minutes, or the wait in open state if that is longer.",
            max -> max == null || isDuration(max),
            BreakerConfig::getMaxWaitDurationInOpenState,
            Builder::maxWaitDurationInOpenState);

    /** Largest {@link #WAIT_MULTIPLIER}. */
    public static final float MAX_WAIT_MULTIPLIER = 100f;

    /** What each failed probe multiplies the next wait in OPEN by; 1 keeps every wait the same. */
    public static final Setting<Float> WAIT_MULTIPLIER = new Setting<>(
            "waitMultiplier",
            Float.class,
            1f,
            "a number in [1, " + (int) MAX_WAIT_MULTIPLIER + "]",
            "What each failed probe multiplies the next wait in open state by, up to the max wait; a close resets"
                    + " it (1: every wait is the same).",
            multiplier -> multiplier >= 1f && multiplier <= MAX_WAIT_MULTIPLIER,
            BreakerConfig::getWaitMultiplier,
            Builder::waitMultiplier);

    /** The share of each wait in OPEN taken off at random, so breakers that opened together spread out. */
    public static final Setting<Float> WAIT_JITTER = new Setting<>(
            "waitJitter",
            Float.class,
            0f,
            "a number in [0, 1]",
            "Share of each wait in open state taken off at random (the wait lies between (1 - jitter) times"
                    + " and once the wait), so breakers that opened together probe at different times.",
            jitter -> jitter >= 0f && jitter <= 1f,
            BreakerConfig::getWaitJitter,
            Builder::waitJitter);

    /** Probes let through in HALF_OPEN. */
    public static final Setting<Integer> PERMITTED_CALLS_IN_HALF_OPEN_STATE = new Setting<>(
            "permittedCallsInHalfOpenState",
            Integer.class,
            1,
            "a whole number in [1, " + MAX_PERMITTED_CALLS_IN_HALF_OPEN_STATE + "]",
            "Probes let through when half-open; all of them must succeed to close the breaker.",
            probes -> probes >= 1 && probes <= MAX_PERMITTED_CALLS_IN_HALF_OPEN_STATE,
            BreakerConfig::getPermittedCallsInHalfOpenState,
            Builder::permittedCallsInHalfOpenState);

    /** How long a probe may stay unreported before its permit is given to another caller. */
    public static final Setting<Duration> PROBE_LEASE = new Setting<>(
            "probeLease",
            Duration.class,
            Duration.ofSeconds(60),
            DURATION,
            "How long a probe may stay unreported before another caller may take its permit.",
            BreakerConfig::isDuration,
            BreakerConfig::getProbeLease,
            Builder::probeLease);

    /** Exceptions that count as failures. */
    public static final Setting<List<Class<? extends Throwable>>> RECORD_EXCEPTIONS = new Setting<>(
            "recordExceptions",
            List.class,
            List.of(),
            "a list of classes that extend java.lang.Throwable",
            "Exception classes that count as failures (subclasses too); empty means every exception that is not ignored.",
            BreakerConfig::isThrowables,
            BreakerConfig::getRecordExceptions,
            Builder::recordExceptions);

    /** Exceptions that count neither as success nor as failure. */
    public static final Setting<List<Class<? extends Throwable>>> IGNORE_EXCEPTIONS = new Setting<>(
            "ignoreExceptions",
            List.class,
            List.of(),
            "a list of classes that extend java.lang.Throwable",
            "Exception classes that count neither as success nor as failure and get no fallback (subclasses too).",
            BreakerConfig::isThrowables,
            BreakerConfig::getIgnoreExceptions,
            Builder::ignoreExceptions);

    /**
     * How long a protected call may run before it is given up; none (the default) never cuts a call.
     * Read by the integrations that run calls with {@link CallTimeout} (the Spring annotation, the
     * Spring Cloud factories); {@link CircuitBreaker#execute} never times a call out. Fixed when the
     * breaker is built.
     */
    public static final Setting<@Nullable Duration> CALL_TIMEOUT = new Setting<>(
            "callTimeout",
            Duration.class,
            null,
            DURATION + ", or none for no timeout",
            "How long a protected call may run before the caller gets a CallTimeoutException (a failure) and the"
                    + " call's thread is interrupted; unset, no call is ever cut.",
            timeout -> timeout == null || isDuration(timeout),
            BreakerConfig::getCallTimeout,
            Builder::callTimeout);

    /** Share of calls (percent) that fail with {@link #FAULT_EXCEPTION} before their method runs; 0 injects none. */
    public static final Setting<Float> FAULT_FAILURE_RATE = new Setting<>(
            "faultFailureRate",
            Float.class,
            0f,
            "a number in [0, 100]",
            "Percentage of calls that fail with the fault exception before their method runs (fault injection, for"
                    + " tests and rehearsals); 0 injects no failure.",
            BreakerConfig::isShare,
            BreakerConfig::getFaultFailureRate,
            Builder::faultFailureRate);

    /** The exception an injected failure throws. */
    public static final Setting<Class<? extends Throwable>> FAULT_EXCEPTION = new Setting<>(
            "faultException",
            Class.class,
            InjectedFaultException.class,
            "a class that extends java.lang.Throwable, not abstract, with a public constructor taking a String"
                    + " or none",
            "Exception class an injected failure throws; by default an InjectedFaultException naming the breaker.",
            Faults::isInjectable,
            BreakerConfig::getFaultException,
            Builder::faultException);

    /** Latency added before the method of a call runs; none (the default) adds none. */
    public static final Setting<@Nullable Duration> FAULT_LATENCY = new Setting<>(
            "faultLatency",
            Duration.class,
            null,
            DURATION + ", or none for no injected latency",
            "Latency injected before the method of a call runs (fault injection); unset injects none.",
            latency -> latency == null || isDuration(latency),
            BreakerConfig::getFaultLatency,
            Builder::faultLatency);

    /** Share of calls (percent) delayed by {@link #FAULT_LATENCY}. */
    public static final Setting<Float> FAULT_LATENCY_RATE = new Setting<>(
            "faultLatencyRate",
            Float.class,
            100f,
            "a number in [0, 100]",
            "Percentage of calls delayed by the fault latency (when it is set).",
            BreakerConfig::isShare,
            BreakerConfig::getFaultLatencyRate,
            Builder::faultLatencyRate);

    private static final List<Setting<?>> SETTINGS = List.of(
            SLIDING_WINDOW_TYPE,
            SLIDING_WINDOW_SIZE,
            MINIMUM_NUMBER_OF_CALLS,
            FAILURE_RATE_THRESHOLD,
            SLOW_CALL_RATE_THRESHOLD,
            SLOW_CALL_DURATION_THRESHOLD,
            WAIT_DURATION_IN_OPEN_STATE,
            MAX_WAIT_DURATION_IN_OPEN_STATE,
            WAIT_MULTIPLIER,
            WAIT_JITTER,
            PERMITTED_CALLS_IN_HALF_OPEN_STATE,
            PROBE_LEASE,
            RECORD_EXCEPTIONS,
            IGNORE_EXCEPTIONS,
            CALL_TIMEOUT,
            FAULT_FAILURE_RATE,
            FAULT_EXCEPTION,
            FAULT_LATENCY,
            FAULT_LATENCY_RATE);

    private static final BreakerConfig DEFAULTS = new Builder().build();

    private final SlidingWindowType slidingWindowType;
    private final int slidingWindowSize;
    private final int minimumNumberOfCalls;
    private final float failureRateThreshold;
    private final float slowCallRateThreshold;
    private final @Nullable Duration slowCallDurationThreshold;
    private final Duration waitDurationInOpenState;
    private final @Nullable Duration maxWaitDurationInOpenState;
    private final float waitMultiplier;
    private final float waitJitter;
    private final @Nullable DoubleSupplier jitterSource;
    private final int permittedCallsInHalfOpenState;
    private final Duration probeLease;
    private final List<Class<? extends Throwable>> recordExceptions;
    private final List<Class<? extends Throwable>> ignoreExceptions;
    private final @Nullable Duration callTimeout;
    private final @Nullable Predicate<Throwable> recordFailurePredicate;
    private final @Nullable RetryAfterResolver retryAfterResolver;
    private final float faultFailureRate;
    private final Class<? extends Throwable> faultException;
    private final @Nullable Duration faultLatency;
    private final float faultLatencyRate;
    private final @Nullable DoubleSupplier faultRandom;
    private final Faults.@Nullable Sleeper faultSleeper;

    private BreakerConfig(Builder b) {
        this.slidingWindowType = b.slidingWindowType;
        this.slidingWindowSize = b.slidingWindowSize;
        this.minimumNumberOfCalls = b.minimumNumberOfCalls;
        this.failureRateThreshold = b.failureRateThreshold;
        this.slowCallRateThreshold = b.slowCallRateThreshold;
        this.slowCallDurationThreshold = b.slowCallDurationThreshold;
        this.waitDurationInOpenState = b.waitDurationInOpenState;
        this.maxWaitDurationInOpenState = b.maxWaitDurationInOpenState;
        this.waitMultiplier = b.waitMultiplier;
        this.waitJitter = b.waitJitter;
        this.jitterSource = b.jitterSource;
        this.permittedCallsInHalfOpenState = b.permittedCallsInHalfOpenState;
        this.probeLease = b.probeLease;
        this.recordExceptions = List.copyOf(b.recordExceptions);
        this.ignoreExceptions = List.copyOf(b.ignoreExceptions);
        this.callTimeout = b.callTimeout;
        this.recordFailurePredicate = b.recordFailurePredicate;
        this.retryAfterResolver = b.retryAfterResolver;
        this.faultFailureRate = b.faultFailureRate;
        this.faultException = b.faultException;
        this.faultLatency = b.faultLatency;
        this.faultLatencyRate = b.faultLatencyRate;
        this.faultRandom = b.faultRandom;
        this.faultSleeper = b.faultSleeper;
    }

    /** The defaults: a count window of 100 calls, 10 calls minimum, 50% failures, 30 s open, 1 probe. */
    public static BreakerConfig ofDefaults() {
        return DEFAULTS;
    }

    /**
     * Every setting a configuration source may set, in a stable order. The failure predicate
     * ({@link Builder#recordFailurePredicate}), the Retry-After resolver
     * ({@link Builder#retryAfterResolver}), the jitter's random source ({@link Builder#jitterSource}) and
     * fault injection's random source and sleeper ({@link Builder#faultRandom}, {@link Builder#faultSleeper})
     * are code, not settings, and are not among them.
     */
    public static List<Setting<?>> settings() {
        return SETTINGS;
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
    public @Nullable Duration getSlowCallDurationThreshold() {
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

    /**
     * The longest a failure's Retry-After (see {@link RetryAfterAware}), or the backoff of failed
     * probes ({@link #getWaitMultiplier()}), may keep the breaker OPEN, or
     * {@code null} when unset: then ten minutes, or {@link #getWaitDurationInOpenState()} if longer.
     */
    public @Nullable Duration getMaxWaitDurationInOpenState() {
        return maxWaitDurationInOpenState;
    }

    /**
     * The longest the breaker stays OPEN, whatever a Retry-After or the backoff asks:
     * {@link #getMaxWaitDurationInOpenState()}, or when unset ten minutes, or the wait if longer.
     */
    public Duration longestWaitInOpenState() {
        if (maxWaitDurationInOpenState != null) {
            return maxWaitDurationInOpenState;
        }
        return waitDurationInOpenState.compareTo(DEFAULT_MAX_WAIT) > 0 ? waitDurationInOpenState : DEFAULT_MAX_WAIT;
    }

    /** What each failed probe multiplies the next wait in OPEN by (1: no backoff); a close starts again. */
    public float getWaitMultiplier() {
        return waitMultiplier;
    }

    /** The share, in [0, 1], of each wait in OPEN taken off at random (0: no jitter). */
    public float getWaitJitter() {
        return waitJitter;
    }

    /** Where the jitter's random numbers in [0, 1) come from, or {@code null} for {@link java.util.concurrent.ThreadLocalRandom}. */
    public @Nullable DoubleSupplier getJitterSource() {
        return jitterSource;
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

    /**
     * How long a protected call may run before it is given up, or {@code null} (the default) for no
     * timeout; see {@link #CALL_TIMEOUT} and {@link CallTimeout}.
     */
    public @Nullable Duration getCallTimeout() {
        return callTimeout;
    }

    /** Extra test deciding that an exception counts as a failure, or {@code null}. */
    public @Nullable Predicate<Throwable> getRecordFailurePredicate() {
        return recordFailurePredicate;
    }

    /** What reads a Retry-After from failures the breaker cannot read by itself, or {@code null}. */
    public @Nullable RetryAfterResolver getRetryAfterResolver() {
        return retryAfterResolver;
    }

    /** Percentage of calls that fail with {@link #getFaultException()} before their method runs (0: none). */
    public float getFaultFailureRate() {
        return faultFailureRate;
    }

    /** The exception an injected failure throws. */
    public Class<? extends Throwable> getFaultException() {
        return faultException;
    }

    /** Latency injected before the method of a call runs, or {@code null} for none. */
    public @Nullable Duration getFaultLatency() {
        return faultLatency;
    }

    /** Percentage of calls delayed by {@link #getFaultLatency()}. */
    public float getFaultLatencyRate() {
        return faultLatencyRate;
    }

    /** Where fault injection draws its random numbers in [0, 1), or {@code null} for ThreadLocalRandom. */
    public @Nullable DoubleSupplier getFaultRandom() {
        return faultRandom;
    }

    /** What waits an injected latency on a blocking call, or {@code null} for {@link Thread#sleep}. */
    public Faults.@Nullable Sleeper getFaultSleeper() {
        return faultSleeper;
    }

    /**
     * Whether these settings inject faults into calls (a failure rate above 0, or a latency with a rate
     * above 0); see {@link Faults}.
     */
    public boolean isFaultInjectionEnabled() {
        return faultFailureRate > 0f || (faultLatency != null && faultLatencyRate > 0f);
    }

    /**
     * Whether the exception counts as a failure. Ignored exceptions never do. A
     * {@link CallTimeoutException} that is not ignored always does. Otherwise, with neither
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
        if (error instanceof CallTimeoutException || (recordExceptions.isEmpty() && recordFailurePredicate == null)) {
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
                + ", maxWaitDurationInOpenState=" + maxWaitDurationInOpenState
                + ", waitMultiplier=" + waitMultiplier + ", waitJitter=" + waitJitter
                + ", permittedCallsInHalfOpenState=" + permittedCallsInHalfOpenState + ", probeLease=" + probeLease
                + ", recordExceptions=" + recordExceptions + ", ignoreExceptions=" + ignoreExceptions
                + ", callTimeout=" + callTimeout + ", faultFailureRate=" + faultFailureRate + ", faultException="
                + faultException.getName() + ", faultLatency=" + faultLatency + ", faultLatencyRate=" + faultLatencyRate
                + "}";
    }

    /** Builds a {@link BreakerConfig}; each setter validates its argument at once. */
    public static final class Builder {

        private SlidingWindowType slidingWindowType = SLIDING_WINDOW_TYPE.defaultValue();
        private int slidingWindowSize = SLIDING_WINDOW_SIZE.defaultValue();
        private int minimumNumberOfCalls = MINIMUM_NUMBER_OF_CALLS.defaultValue();
        private float failureRateThreshold = FAILURE_RATE_THRESHOLD.defaultValue();
        private float slowCallRateThreshold = SLOW_CALL_RATE_THRESHOLD.defaultValue();
        private @Nullable Duration slowCallDurationThreshold = SLOW_CALL_DURATION_THRESHOLD.defaultValue();
        private Duration waitDurationInOpenState = WAIT_DURATION_IN_OPEN_STATE.defaultValue();
        private @Nullable Duration maxWaitDurationInOpenState = MAX_WAIT_DURATION_IN_OPEN_STATE.defaultValue();
        private float waitMultiplier = WAIT_MULTIPLIER.defaultValue();
        private float waitJitter = WAIT_JITTER.defaultValue();
        private @Nullable DoubleSupplier jitterSource;
        private int permittedCallsInHalfOpenState = PERMITTED_CALLS_IN_HALF_OPEN_STATE.defaultValue();
        private Duration probeLease = PROBE_LEASE.defaultValue();
        private List<Class<? extends Throwable>> recordExceptions = RECORD_EXCEPTIONS.defaultValue();
        private List<Class<? extends Throwable>> ignoreExceptions = IGNORE_EXCEPTIONS.defaultValue();
        private @Nullable Duration callTimeout = CALL_TIMEOUT.defaultValue();
        private @Nullable Predicate<Throwable> recordFailurePredicate;
        private @Nullable RetryAfterResolver retryAfterResolver;
        private float faultFailureRate = FAULT_FAILURE_RATE.defaultValue();
        private Class<? extends Throwable> faultException = FAULT_EXCEPTION.defaultValue();
        private @Nullable Duration faultLatency = FAULT_LATENCY.defaultValue();
        private float faultLatencyRate = FAULT_LATENCY_RATE.defaultValue();
        private @Nullable DoubleSupplier faultRandom;
        private Faults.@Nullable Sleeper faultSleeper;

        private Builder() {}

        private Builder(BreakerConfig c) {
            this.slidingWindowType = c.slidingWindowType;
            this.slidingWindowSize = c.slidingWindowSize;
            this.minimumNumberOfCalls = c.minimumNumberOfCalls;
            this.failureRateThreshold = c.failureRateThreshold;
            this.slowCallRateThreshold = c.slowCallRateThreshold;
            this.slowCallDurationThreshold = c.slowCallDurationThreshold;
            this.waitDurationInOpenState = c.waitDurationInOpenState;
            this.maxWaitDurationInOpenState = c.maxWaitDurationInOpenState;
            this.waitMultiplier = c.waitMultiplier;
            this.waitJitter = c.waitJitter;
            this.jitterSource = c.jitterSource;
            this.permittedCallsInHalfOpenState = c.permittedCallsInHalfOpenState;
            this.probeLease = c.probeLease;
            this.recordExceptions = c.recordExceptions;
            this.ignoreExceptions = c.ignoreExceptions;
            this.callTimeout = c.callTimeout;
            this.recordFailurePredicate = c.recordFailurePredicate;
            this.retryAfterResolver = c.retryAfterResolver;
            this.faultFailureRate = c.faultFailureRate;
            this.faultException = c.faultException;
            this.faultLatency = c.faultLatency;
            this.faultLatencyRate = c.faultLatencyRate;
            this.faultRandom = c.faultRandom;
            this.faultSleeper = c.faultSleeper;
        }

        /**
         * The window: the last {@code size} calls ({@code COUNT_BASED}, 1 to 1,000,000) or the calls of
         * the last {@code size} seconds ({@code TIME_BASED}, 1 to 3,600).
         */
        public Builder slidingWindow(SlidingWindowType type, int size) {
            slidingWindowType(type);
            this.slidingWindowSize = SLIDING_WINDOW_SIZE.check(size);
            checkWindowSizeForType();
            return this;
        }

        /** Whether the window counts calls or seconds; the size is checked against it by {@link #build()}. */
        public Builder slidingWindowType(SlidingWindowType type) {
            this.slidingWindowType = SLIDING_WINDOW_TYPE.check(type);
            return this;
        }

        /**
         * The window's size: 1 to 1,000,000 calls for a count window, 1 to 3,600 seconds for a time
         * window (that narrower limit is checked by {@link #build()}, once the type is known).
         */
        public Builder slidingWindowSize(int size) {
            this.slidingWindowSize = SLIDING_WINDOW_SIZE.check(size);
            return this;
        }

        /** Calls the window must hold before a rate is evaluated: at least 1 (and for a count window, at most its size). */
        public Builder minimumNumberOfCalls(int calls) {
            this.minimumNumberOfCalls = MINIMUM_NUMBER_OF_CALLS.check(calls);
            return this;
        }

        /** Failure rate, in percent, that trips the breaker: in (0, 100]. */
        public Builder failureRateThreshold(float percent) {
            this.failureRateThreshold = FAILURE_RATE_THRESHOLD.check(percent);
            return this;
        }

        /** Slow-call rate, in percent, that trips the breaker: in (0, 100]. */
        public Builder slowCallRateThreshold(float percent) {
            this.slowCallRateThreshold = SLOW_CALL_RATE_THRESHOLD.check(percent);
            return this;
        }

        /**
         * A call at least this long counts as slow (positive, at most {@link #MAX_DURATION}), or
         * {@code null} to turn slow-call detection off.
         */
        public Builder slowCallDurationThreshold(@Nullable Duration threshold) {
            this.slowCallDurationThreshold = SLOW_CALL_DURATION_THRESHOLD.check(threshold);
            return this;
        }

        /** How long to stay OPEN before a probe: positive, at most {@link #MAX_DURATION}. */
        public Builder waitDurationInOpenState(Duration wait) {
            this.waitDurationInOpenState = WAIT_DURATION_IN_OPEN_STATE.check(wait);
            return this;
        }

        /**
         * The longest a failure's Retry-After may keep the breaker OPEN: positive, at most
         * {@link #MAX_DURATION}, and at least the wait (checked by {@link #build()}); {@code null} for
         * ten minutes, or the wait if that is longer.
         */
        public Builder maxWaitDurationInOpenState(@Nullable Duration max) {
            this.maxWaitDurationInOpenState = MAX_WAIT_DURATION_IN_OPEN_STATE.check(max);
            return this;
        }

        /**
         * What each failed probe multiplies the next wait in OPEN by, in [1, 100]: after n failed probes
         * in a row the wait is {@code wait * multiplier^n}, capped by the max wait; a close starts again.
         */
        public Builder waitMultiplier(float multiplier) {
            this.waitMultiplier = WAIT_MULTIPLIER.check(multiplier);
            return this;
        }

        /**
         * The share of each wait in OPEN taken off at random, in [0, 1]: the wait lies between
         * {@code (1 - jitter) * wait} and {@code wait} (a Retry-After is never shortened).
         */
        public Builder waitJitter(float jitter) {
            this.waitJitter = WAIT_JITTER.check(jitter);
            return this;
        }

        /**
         * Where the jitter's random numbers come from: each call returns a number in [0, 1) (tests give
         * a fixed or seeded sequence); {@code null} for {@link java.util.concurrent.ThreadLocalRandom}.
         */
        public Builder jitterSource(@Nullable DoubleSupplier source) {
            this.jitterSource = source;
            return this;
        }

        /** Probes let through in HALF_OPEN: 1 to 1,000. */
        public Builder permittedCallsInHalfOpenState(int probes) {
            this.permittedCallsInHalfOpenState = PERMITTED_CALLS_IN_HALF_OPEN_STATE.check(probes);
            return this;
        }

        /** How long an unreported probe keeps its permit before another caller may take it: positive, at most {@link #MAX_DURATION}. */
        public Builder probeLease(Duration lease) {
            this.probeLease = PROBE_LEASE.check(lease);
            return this;
        }

        /** Exceptions that count as failures (subclasses match). */
        @SafeVarargs
        public final Builder recordExceptions(Class<? extends Throwable>... types) {
            return recordExceptions(List.of(types));
        }

        /** Exceptions that count as failures (subclasses match). */
        public Builder recordExceptions(List<Class<? extends Throwable>> types) {
            this.recordExceptions = List.copyOf(RECORD_EXCEPTIONS.check(types));
            return this;
        }

        /** Exceptions that count neither as success nor as failure (subclasses match). */
        @SafeVarargs
        public final Builder ignoreExceptions(Class<? extends Throwable>... types) {
            return ignoreExceptions(List.of(types));
        }

        /** Exceptions that count neither as success nor as failure (subclasses match). */
        public Builder ignoreExceptions(List<Class<? extends Throwable>> types) {
            this.ignoreExceptions = List.copyOf(IGNORE_EXCEPTIONS.check(types));
            return this;
        }

        /**
         * How long a protected call may run before it is given up (positive, at most
         * {@link #MAX_DURATION}), or {@code null} (the default) for no timeout; see {@link CallTimeout}.
         */
        public Builder callTimeout(@Nullable Duration timeout) {
            this.callTimeout = CALL_TIMEOUT.check(timeout);
            return this;
        }

        /** An extra test: an exception it accepts counts as a failure; {@code null} removes it. */
        public Builder recordFailurePredicate(@Nullable Predicate<Throwable> predicate) {
            this.recordFailurePredicate = predicate;
            return this;
        }

        /**
         * Reads a Retry-After from failures the breaker cannot read by itself (asked before
         * {@link RetryAfterAware}, for the failure that opens the breaker only); {@code null} removes it.
         */
        public Builder retryAfterResolver(@Nullable RetryAfterResolver resolver) {
            this.retryAfterResolver = resolver;
            return this;
        }

        /** Percentage of calls, in [0, 100], that fail with the fault exception before their method runs. */
        public Builder faultFailureRate(float percent) {
            this.faultFailureRate = FAULT_FAILURE_RATE.check(percent);
            return this;
        }

        /** The exception an injected failure throws: concrete, with a public (String) or () constructor. */
        public Builder faultException(Class<? extends Throwable> type) {
            this.faultException = FAULT_EXCEPTION.check(type);
            return this;
        }

        /** Latency injected before the method of a call runs (positive), or {@code null} for none. */
        public Builder faultLatency(@Nullable Duration latency) {
            this.faultLatency = FAULT_LATENCY.check(latency);
            return this;
        }

        /** Percentage of calls, in [0, 100], delayed by the fault latency. */
        public Builder faultLatencyRate(float percent) {
            this.faultLatencyRate = FAULT_LATENCY_RATE.check(percent);
            return this;
        }

        /** Where fault injection draws numbers in [0, 1) (tests give a seeded sequence); {@code null} for ThreadLocalRandom. */
        public Builder faultRandom(@Nullable DoubleSupplier source) {
            this.faultRandom = source;
            return this;
        }

        /** What waits an injected latency on a blocking call (tests move a virtual clock); {@code null} for Thread.sleep. */
        public Builder faultSleeper(Faults.@Nullable Sleeper sleeper) {
            this.faultSleeper = sleeper;
            return this;
        }

        /** The config; checks the settings that depend on each other. */
        public BreakerConfig build() {
            checkWindowSizeForType();
            if (slidingWindowType == SlidingWindowType.COUNT_BASED && minimumNumberOfCalls > slidingWindowSize) {
                throw new InvalidSettingException(
                        MINIMUM_NUMBER_OF_CALLS,
                        minimumNumberOfCalls,
                        "at most slidingWindowSize (" + slidingWindowSize + ") for a COUNT_BASED window");
            }
            if (maxWaitDurationInOpenState != null
                    && maxWaitDurationInOpenState.compareTo(waitDurationInOpenState) < 0) {
                throw new InvalidSettingException(
                        MAX_WAIT_DURATION_IN_OPEN_STATE,
                        maxWaitDurationInOpenState,
                        "at least waitDurationInOpenState (" + waitDurationInOpenState + "), or none");
            }
            return new BreakerConfig(this);
        }

        private void checkWindowSizeForType() {
            if (slidingWindowType == SlidingWindowType.TIME_BASED && slidingWindowSize > MAX_TIME_WINDOW_SECONDS) {
                throw new InvalidSettingException(
                        SLIDING_WINDOW_SIZE,
                        slidingWindowSize,
                        "a whole number in [1, " + MAX_TIME_WINDOW_SECONDS + "] (seconds) for a TIME_BASED window");
            }
        }
    }

    private static boolean isShare(Float value) {
        return value >= 0 && value <= 100;
    }

    private static boolean isPercent(Float value) {
        return value > 0 && value <= 100;
    }

    private static boolean isDuration(Duration value) {
        return !value.isNegative() && !value.isZero() && value.compareTo(MAX_DURATION) <= 0;
    }

    private static boolean isThrowables(List<Class<? extends Throwable>> types) {
        for (Class<?> type : types) {
            if (type == null || !Throwable.class.isAssignableFrom(type)) {
                return false;
            }
        }
        return true;
    }
}
