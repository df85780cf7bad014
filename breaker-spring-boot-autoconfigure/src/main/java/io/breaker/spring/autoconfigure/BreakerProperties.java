package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.SlidingWindowType;
import io.breaker.spring.config.DurationOrNone;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Breakers configured in {@code application.yml}: shared {@code defaults} and named {@code instances}.
 * An instance inherits every default it does not set.
 *
 * <pre>
 * breakers:
 *   defaults:
 *     failure-rate-threshold: 50
 *   instances:
 *     wholesaler:
 *       wait-duration-in-open-state: 30s
 * </pre>
 *
 * The breaker settings themselves are defined once, in {@link BreakerConfig#settings()}: their
 * defaults, allowed values and descriptions come from there ({@link Settings} only gives them a shape
 * to bind to, which a test holds to the definitions; {@code BreakerSettingsMapping} ties each property
 * to its setting, one type-checked line each).
 */
@ConfigurationProperties(prefix = "breakers")
public class BreakerProperties {

    /** Whether the breaker registry and the @CircuitProtected advice are set up at all. */
    private boolean enabled = true;

    /**
     * Order of the @CircuitProtected advice among other advice on the same method (lower runs
     * further outside); the default lets Spring Retry's @Retryable (2147483646) wrap the breaker.
     */
    private int aspectOrder = 2147483647; // Ordered.LOWEST_PRECEDENCE, written out for the metadata

    /** Settings every breaker starts from, including breakers named only in @CircuitProtected. */
    private final Settings defaults = new Settings();

    /** Named breakers, created at start-up; each inherits every default it does not set. */
    private final Map<String, Settings> instances = new LinkedHashMap<>();

    /**
     * Faults injected into the calls of named breakers, for tests and rehearsals of an outage; none
     * unless set. A name here names a breaker as one under instances does.
     */
    private final Map<String, Faults> faults = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getAspectOrder() {
        return aspectOrder;
    }

    public void setAspectOrder(int aspectOrder) {
        this.aspectOrder = aspectOrder;
    }

    public Settings getDefaults() {
        return defaults;
    }

    public Map<String, Settings> getInstances() {
        return instances;
    }

    public Map<String, Faults> getFaults() {
        return faults;
    }

    /**
     * The faults injected into one breaker's calls ({@code breakers.faults.<name>}), each mapped onto its
     * {@code fault-*} setting of {@link BreakerConfig#settings()}; every one starts unset.
     */
    public static class Faults {

        /** Percentage of calls that fail with the fault exception before their method runs; 0 injects none. */
        private @Nullable Float failureRate;

        /** Exception class an injected failure throws; by default an InjectedFaultException naming the breaker. */
        private @Nullable String exception;

        /** Latency injected before the method of a call runs; unset injects none. As written: see {@link DurationOrNone}. */
        private @Nullable Object latency;

        /** Percentage of calls delayed by the fault latency (when it is set). */
        private @Nullable Float latencyRate;

        public @Nullable Float getFailureRate() {
            return failureRate;
        }

        public void setFailureRate(@Nullable Float failureRate) {
            this.failureRate = failureRate;
        }

        public @Nullable String getException() {
            return exception;
        }

        public void setException(@Nullable String exception) {
            this.exception = exception;
        }

        public @Nullable Duration getLatency() {
            return DurationOrNone.lenient(latency);
        }

        /** A duration ({@code 800ms}, {@code PT2S}, a number of milliseconds) or {@code none}: no injected latency. */
        public void setLatency(@Nullable Object latency) {
            this.latency = DurationOrNone.written(latency);
        }

        /** The latency as written, {@code none} included; not a property. */
        @Nullable
        Object latencyAsWritten() {
            return latency;
        }

        public @Nullable Float getLatencyRate() {
            return latencyRate;
        }

        public void setLatencyRate(@Nullable Float latencyRate) {
            this.latencyRate = latencyRate;
        }
    }

    /**
     * The breaker settings of {@code defaults} or of one instance, named as in {@link BreakerConfig#settings()}
     * (exception classes by name). Every one starts unset: an instance then takes the default, and the
     * defaults take the setting's own default.
     *
     * <p>A duration that can be off ({@code slow-call-duration-threshold}, {@code max-wait-duration-in-open-state},
     * {@code call-timeout}) also takes {@code none}, which sets it, to off: an instance's {@code none} wins
     * over a duration in the defaults. Spring Boot cannot bind {@code none} to a {@code Duration}, so its
     * setter takes the value as written, and its getter gives the duration (or {@code null}). With no
     * setter of the getter's type, the configuration processor leaves these out; their metadata is in
     * {@code additional-spring-configuration-metadata.json}, which a test holds to the definitions.
     */
    public static class Settings {

        /** Whether the window holds the last N calls (COUNT_BASED) or the calls of the last N seconds (TIME_BASED). */
        private @Nullable SlidingWindowType slidingWindowType;

        /** Size of the window: a number of calls for COUNT_BASED, a number of seconds for TIME_BASED. */
        private @Nullable Integer slidingWindowSize;

        /** Calls the window must hold before a failure or slow-call rate is evaluated. */
        private @Nullable Integer minimumNumberOfCalls;

        /** Percentage of failed calls in the window at or above which the breaker opens. */
        private @Nullable Float failureRateThreshold;

        /** Percentage of slow calls in the window at or above which the breaker opens (with slow-call detection on). */
        private @Nullable Float slowCallRateThreshold;

        /**
         * Duration from which a call counts as slow; unset turns slow-call detection off. As written: see
         * {@link DurationOrNone}.
         */
        private @Nullable Object slowCallDurationThreshold;

        /** How long the breaker stays open before it lets a probe through. */
        private @Nullable Duration waitDurationInOpenState;

        /** The longest a failure's Retry-After or the backoff of failed probes may keep the breaker open; unset means 10 minutes, or the wait in open state if that is longer. As written: see {@link DurationOrNone}. */
        private @Nullable Object maxWaitDurationInOpenState;

        /** What each failed probe multiplies the next wait in open state by, up to the max wait; a close resets it (1: every wait is the same). */
        private @Nullable Float waitMultiplier;

        /** Share of each wait in open state taken off at random (the wait lies between (1 - jitter) times and once the wait), so breakers that opened together probe at different times. */
        private @Nullable Float waitJitter;

        /** Probes let through when half-open; all of them must succeed to close the breaker. */
        private @Nullable Integer permittedCallsInHalfOpenState;

        /** How long a probe may stay unreported before another caller may take its permit. */
        private @Nullable Duration probeLease;

        /** Exception classes that count as failures (subclasses too); empty means every exception that is not ignored. */
        private @Nullable List<String> recordExceptions;

        /** Exception classes that count neither as success nor as failure and get no fallback (subclasses too). */
        private @Nullable List<String> ignoreExceptions;

        /**
         * How long a protected call may run before the caller gets a CallTimeoutException (a failure) and the
         * call's thread is interrupted; unset, no call is ever cut. As written: see {@link DurationOrNone}.
         */
        private @Nullable Object callTimeout;

        /**
         * Name of the java.util.concurrent.Executor bean that runs the calls of a breaker with call-timeout;
         * unset, each call gets a new virtual thread (Java 21 and later; on Java 17 start-up fails). Read at
         * start-up only.
         */
        private @Nullable String callTimeoutExecutor;

        /**
         * Results of @CircuitProtected methods that count as failures, by HTTP status or by a
         * ResultPredicate bean; unset, no result counts. Read by the advice, not by the breaker: set at
         * start-up only.
         */
        private final RecordResult recordResult = new RecordResult();

        public @Nullable SlidingWindowType getSlidingWindowType() {
            return slidingWindowType;
        }

        public void setSlidingWindowType(@Nullable SlidingWindowType slidingWindowType) {
            this.slidingWindowType = slidingWindowType;
        }

        public @Nullable Integer getSlidingWindowSize() {
            return slidingWindowSize;
        }

        public void setSlidingWindowSize(@Nullable Integer slidingWindowSize) {
            this.slidingWindowSize = slidingWindowSize;
        }

        public @Nullable Integer getMinimumNumberOfCalls() {
            return minimumNumberOfCalls;
        }

        public void setMinimumNumberOfCalls(@Nullable Integer minimumNumberOfCalls) {
            this.minimumNumberOfCalls = minimumNumberOfCalls;
        }

        public @Nullable Float getFailureRateThreshold() {
            return failureRateThreshold;
        }

        public void setFailureRateThreshold(@Nullable Float failureRateThreshold) {
            this.failureRateThreshold = failureRateThreshold;
        }

        public @Nullable Float getSlowCallRateThreshold() {
            return slowCallRateThreshold;
        }

        public void setSlowCallRateThreshold(@Nullable Float slowCallRateThreshold) {
            this.slowCallRateThreshold = slowCallRateThreshold;
        }

        public @Nullable Duration getSlowCallDurationThreshold() {
            return DurationOrNone.lenient(slowCallDurationThreshold);
        }

        /** A duration ({@code 800ms}, {@code PT2S}, a number of milliseconds) or {@code none}: no slow-call detection. */
        public void setSlowCallDurationThreshold(@Nullable Object slowCallDurationThreshold) {
            this.slowCallDurationThreshold = DurationOrNone.written(slowCallDurationThreshold);
        }

        /** The threshold as written, {@code none} included; not a property. */
        @Nullable
        Object slowCallDurationThresholdAsWritten() {
            return slowCallDurationThreshold;
        }

        public @Nullable Duration getWaitDurationInOpenState() {
            return waitDurationInOpenState;
        }

        public void setWaitDurationInOpenState(@Nullable Duration waitDurationInOpenState) {
            this.waitDurationInOpenState = waitDurationInOpenState;
        }

        public @Nullable Duration getMaxWaitDurationInOpenState() {
            return DurationOrNone.lenient(maxWaitDurationInOpenState);
        }

        /** A duration ({@code 800ms}, {@code PT2S}, a number of milliseconds) or {@code none}: the built-in limit. */
        public void setMaxWaitDurationInOpenState(@Nullable Object maxWaitDurationInOpenState) {
            this.maxWaitDurationInOpenState = DurationOrNone.written(maxWaitDurationInOpenState);
        }

        /** The longest wait as written, {@code none} included; not a property. */
        @Nullable
        Object maxWaitDurationInOpenStateAsWritten() {
            return maxWaitDurationInOpenState;
        }

        public @Nullable Float getWaitMultiplier() {
            return waitMultiplier;
        }

        public void setWaitMultiplier(@Nullable Float waitMultiplier) {
            this.waitMultiplier = waitMultiplier;
        }

        public @Nullable Float getWaitJitter() {
            return waitJitter;
        }

        public void setWaitJitter(@Nullable Float waitJitter) {
            this.waitJitter = waitJitter;
        }

        public @Nullable Integer getPermittedCallsInHalfOpenState() {
            return permittedCallsInHalfOpenState;
        }

        public void setPermittedCallsInHalfOpenState(@Nullable Integer permittedCallsInHalfOpenState) {
            this.permittedCallsInHalfOpenState = permittedCallsInHalfOpenState;
        }

        public @Nullable Duration getProbeLease() {
            return probeLease;
        }

        public void setProbeLease(@Nullable Duration probeLease) {
            this.probeLease = probeLease;
        }

        public @Nullable List<String> getRecordExceptions() {
            return recordExceptions;
        }

        public void setRecordExceptions(@Nullable List<String> recordExceptions) {
            this.recordExceptions = recordExceptions;
        }

        public @Nullable List<String> getIgnoreExceptions() {
            return ignoreExceptions;
        }

        public void setIgnoreExceptions(@Nullable List<String> ignoreExceptions) {
            this.ignoreExceptions = ignoreExceptions;
        }

        public @Nullable Duration getCallTimeout() {
            return DurationOrNone.lenient(callTimeout);
        }

        /** A duration ({@code 800ms}, {@code PT2S}, a number of milliseconds) or {@code none}: no call timeout. */
        public void setCallTimeout(@Nullable Object callTimeout) {
            this.callTimeout = DurationOrNone.written(callTimeout);
        }

        /** The call timeout as written, {@code none} included; not a property. */
        @Nullable
        Object callTimeoutAsWritten() {
            return callTimeout;
        }

        public @Nullable String getCallTimeoutExecutor() {
            return callTimeoutExecutor;
        }

        public void setCallTimeoutExecutor(@Nullable String callTimeoutExecutor) {
            this.callTimeoutExecutor = callTimeoutExecutor;
        }

        public RecordResult getRecordResult() {
            return recordResult;
        }
    }

    /**
     * Which results of {@code @CircuitProtected} methods count as failures: {@code http-status} or
     * {@code predicate}, not both. A section that sets neither inherits the one of {@code defaults}.
     */
    public static class RecordResult {

        /**
         * HTTP status codes and inclusive ranges of them, such as 500-599 or 429: a result carrying one
         * (ResponseEntity, HttpStatusCode, anything with getStatusCode()) counts as a failure. An empty
         * list turns off a rule inherited from the defaults.
         */
        private @Nullable List<String> httpStatus;

        /** Name of a bean implementing io.breaker.spring.ResultPredicate that decides which results count as failures. */
        private @Nullable String predicate;

        public @Nullable List<String> getHttpStatus() {
            return httpStatus;
        }

        public void setHttpStatus(@Nullable List<String> httpStatus) {
            this.httpStatus = httpStatus;
        }

        public @Nullable String getPredicate() {
            return predicate;
        }

        public void setPredicate(@Nullable String predicate) {
            this.predicate = predicate;
        }

        /** Whether this section sets a rule (an empty list of codes too). */
        boolean isSet() {
            return httpStatus != null || predicate != null;
        }
    }
}
