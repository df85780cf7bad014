package io.breaker.spring.autoconfigure;

import io.breaker.SlidingWindowType;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.ArrayList;
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
 */
@ConfigurationProperties(prefix = "breakers")
public class BreakerProperties {

    /** Whether the breaker registry and the @CircuitProtected aspect are set up at all. */
    private boolean enabled = true;

    /**
     * Order of the @CircuitProtected advice among other advice on the same method (lower runs
     * further outside); the default lets Spring Retry's @Retryable (2147483646) wrap the breaker.
     */
    private int aspectOrder = 2147483647; // Ordered.LOWEST_PRECEDENCE, written out for the metadata

    /** Settings every breaker starts from, including breakers named only in @CircuitProtected. */
    private final Defaults defaults = new Defaults();

    /** Named breakers, created at start-up; each inherits every default it does not set. */
    private final Map<String, Instance> instances = new LinkedHashMap<>();

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

    public Defaults getDefaults() {
        return defaults;
    }

    public Map<String, Instance> getInstances() {
        return instances;
    }

    /** The settings shared by every breaker; each starts at the engine's default. */
    public static class Defaults {

        /** Whether the window holds the last N calls (COUNT_BASED) or the calls of the last N seconds (TIME_BASED). */
        private SlidingWindowType slidingWindowType = SlidingWindowType.COUNT_BASED;

        /** Size of the window: calls (1 to 1000000) for COUNT_BASED, seconds (1 to 3600) for TIME_BASED. */
        private int slidingWindowSize = 100;

        /** Calls the window must hold before a rate is evaluated (at most the size of a COUNT_BASED window). */
        private int minimumNumberOfCalls = 10;

        /** Percentage of failed calls, in (0, 100], at or above which the breaker opens. */
        private float failureRateThreshold = 50;

        /** Percentage of slow calls, in (0, 100], at or above which the breaker opens (needs slow-call-duration-threshold). */
        private float slowCallRateThreshold = 100;

        /** Duration from which a call counts as slow; unset turns slow-call detection off. */
        private Duration slowCallDurationThreshold;

        /** How long the breaker stays open before it lets a probe through. */
        private Duration waitDurationInOpenState = Duration.ofSeconds(30);

        /** Probes let through in HALF_OPEN (1 to 1000); all must succeed to close the breaker. */
        private int permittedCallsInHalfOpenState = 1;

        /** How long a probe may stay unreported before another caller may take its permit. */
        private Duration probeLease = Duration.ofSeconds(60);

        /** Fully qualified exception classes that count as failures (subclasses too); empty means all not ignored. */
        private List<String> recordExceptions = new ArrayList<>();

        /** Fully qualified exception classes that count neither as success nor failure and skip the fallback. */
        private List<String> ignoreExceptions = new ArrayList<>();

        public SlidingWindowType getSlidingWindowType() {
            return slidingWindowType;
        }

        public void setSlidingWindowType(SlidingWindowType slidingWindowType) {
            this.slidingWindowType = slidingWindowType;
        }

        public int getSlidingWindowSize() {
            return slidingWindowSize;
        }

        public void setSlidingWindowSize(int slidingWindowSize) {
            this.slidingWindowSize = slidingWindowSize;
        }

        public int getMinimumNumberOfCalls() {
            return minimumNumberOfCalls;
        }

        public void setMinimumNumberOfCalls(int minimumNumberOfCalls) {
            this.minimumNumberOfCalls = minimumNumberOfCalls;
        }

        public float getFailureRateThreshold() {
            return failureRateThreshold;
        }

        public void setFailureRateThreshold(float failureRateThreshold) {
            this.failureRateThreshold = failureRateThreshold;
        }

        public float getSlowCallRateThreshold() {
            return slowCallRateThreshold;
        }

        public void setSlowCallRateThreshold(float slowCallRateThreshold) {
            this.slowCallRateThreshold = slowCallRateThreshold;
        }

        public Duration getSlowCallDurationThreshold() {
            return slowCallDurationThreshold;
        }

        public void setSlowCallDurationThreshold(Duration slowCallDurationThreshold) {
            this.slowCallDurationThreshold = slowCallDurationThreshold;
        }

        public Duration getWaitDurationInOpenState() {
            return waitDurationInOpenState;
        }

        public void setWaitDurationInOpenState(Duration waitDurationInOpenState) {
            this.waitDurationInOpenState = waitDurationInOpenState;
        }

        public int getPermittedCallsInHalfOpenState() {
            return permittedCallsInHalfOpenState;
        }

        public void setPermittedCallsInHalfOpenState(int permittedCallsInHalfOpenState) {
            this.permittedCallsInHalfOpenState = permittedCallsInHalfOpenState;
        }

        public Duration getProbeLease() {
            return probeLease;
        }

        public void setProbeLease(Duration probeLease) {
            this.probeLease = probeLease;
        }

        public List<String> getRecordExceptions() {
            return recordExceptions;
        }

        public void setRecordExceptions(List<String> recordExceptions) {
            this.recordExceptions = recordExceptions;
        }

        public List<String> getIgnoreExceptions() {
            return ignoreExceptions;
        }

        public void setIgnoreExceptions(List<String> ignoreExceptions) {
            this.ignoreExceptions = ignoreExceptions;
        }
    }

    /** The settings of one named breaker; each one left unset takes the value from the defaults. */
    public static class Instance {

        /** Whether the window holds the last N calls (COUNT_BASED) or the calls of the last N seconds (TIME_BASED); unset inherits the default. */
        private SlidingWindowType slidingWindowType;

        /** Size of the window: calls for COUNT_BASED, seconds for TIME_BASED; unset inherits the default. */
        private Integer slidingWindowSize;

        /** Calls the window must hold before a rate is evaluated; unset inherits the default. */
        private Integer minimumNumberOfCalls;

        /** Percentage of failed calls, in (0, 100], at or above which the breaker opens; unset inherits the default. */
        private Float failureRateThreshold;

        /** Percentage of slow calls, in (0, 100], at or above which the breaker opens; unset inherits the default. */
        private Float slowCallRateThreshold;

        /** Duration from which a call counts as slow; unset inherits the default. */
        private Duration slowCallDurationThreshold;

        /** How long the breaker stays open before it lets a probe through; unset inherits the default. */
        private Duration waitDurationInOpenState;

        /** Probes let through in HALF_OPEN (1 to 1000); unset inherits the default. */
        private Integer permittedCallsInHalfOpenState;

        /** How long a probe may stay unreported before another caller may take its permit; unset inherits the default. */
        private Duration probeLease;

        /** Fully qualified exception classes that count as failures; unset inherits the default list. */
        private List<String> recordExceptions;

        /** Fully qualified exception classes that count neither as success nor failure; unset inherits the default list. */
        private List<String> ignoreExceptions;

        public SlidingWindowType getSlidingWindowType() {
            return slidingWindowType;
        }

        public void setSlidingWindowType(SlidingWindowType slidingWindowType) {
            this.slidingWindowType = slidingWindowType;
        }

        public Integer getSlidingWindowSize() {
            return slidingWindowSize;
        }

        public void setSlidingWindowSize(Integer slidingWindowSize) {
            this.slidingWindowSize = slidingWindowSize;
        }

        public Integer getMinimumNumberOfCalls() {
            return minimumNumberOfCalls;
        }

        public void setMinimumNumberOfCalls(Integer minimumNumberOfCalls) {
            this.minimumNumberOfCalls = minimumNumberOfCalls;
        }

        public Float getFailureRateThreshold() {
            return failureRateThreshold;
        }

        public void setFailureRateThreshold(Float failureRateThreshold) {
            this.failureRateThreshold = failureRateThreshold;
        }

        public Float getSlowCallRateThreshold() {
            return slowCallRateThreshold;
        }

        public void setSlowCallRateThreshold(Float slowCallRateThreshold) {
            this.slowCallRateThreshold = slowCallRateThreshold;
        }

        public Duration getSlowCallDurationThreshold() {
            return slowCallDurationThreshold;
        }

        public void setSlowCallDurationThreshold(Duration slowCallDurationThreshold) {
            this.slowCallDurationThreshold = slowCallDurationThreshold;
        }

        public Duration getWaitDurationInOpenState() {
            return waitDurationInOpenState;
        }

        public void setWaitDurationInOpenState(Duration waitDurationInOpenState) {
            this.waitDurationInOpenState = waitDurationInOpenState;
        }

        public Integer getPermittedCallsInHalfOpenState() {
            return permittedCallsInHalfOpenState;
        }

        public void setPermittedCallsInHalfOpenState(Integer permittedCallsInHalfOpenState) {
            this.permittedCallsInHalfOpenState = permittedCallsInHalfOpenState;
        }

        public Duration getProbeLease() {
            return probeLease;
        }

        public void setProbeLease(Duration probeLease) {
            this.probeLease = probeLease;
        }

        public List<String> getRecordExceptions() {
            return recordExceptions;
        }

        public void setRecordExceptions(List<String> recordExceptions) {
            this.recordExceptions = recordExceptions;
        }

        public List<String> getIgnoreExceptions() {
            return ignoreExceptions;
        }

        public void setIgnoreExceptions(List<String> ignoreExceptions) {
            this.ignoreExceptions = ignoreExceptions;
        }
    }
}
