package io.breaker.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations breakers make, their names and their keys. {@code circuitbreaker.name} and
 * {@code circuitbreaker.state} follow OpenTelemetry's proposed attributes for circuit breakers; the
 * keys starting with {@code breaker.} are this library's own.
 */
public enum BreakerObservationDocumentation implements ObservationDocumentation {

    /** One call of a {@code @CircuitProtected} method, from its admission (or rejection) to its outcome. */
    CALL {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultBreakerObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {Keys.NAME, Keys.STATE, Keys.OUTCOME};
        }
    },

    /** A fallback's work, a child of the call it answers. */
    FALLBACK {
        @Override
        public String getName() {
            return FALLBACK_NAME;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {Keys.NAME};
        }
    },

    /** A state transition that happened while no observation was current on the reporting thread. */
    TRANSITION {
        @Override
        public String getName() {
            return TRANSITION_NAME;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {Keys.NAME, Keys.STATE, Keys.FROM};
        }

        @Override
        public Observation.Event[] getEvents() {
            return new Observation.Event[] {Observation.Event.of(TRANSITION_NAME)};
        }
    };

    /** The name of a call's observation. */
    public static final String CALL_NAME = "breaker.call";
    /** The name of a fallback's observation. */
    public static final String FALLBACK_NAME = "breaker.fallback";
    /** The name of a transition's own observation, and of the event a transition adds to the current one. */
    public static final String TRANSITION_NAME = "breaker.transition";

    /** The low-cardinality keys. */
    public enum Keys implements KeyName {
        /** The breaker's name (OpenTelemetry's proposed {@code circuitbreaker.name}). */
        NAME {
            @Override
            public String asString() {
                return "circuitbreaker.name";
            }
        },
        /**
         * The state: of a call, when it asked to pass; of a transition, the state it went to (OpenTelemetry's
         * proposed {@code circuitbreaker.state}), lower case: {@code closed}, {@code open}, {@code half_open},
         * {@code forced_open}, {@code forced_closed}.
         */
        STATE {
            @Override
            public String asString() {
                return "circuitbreaker.state";
            }
        },
        /** How the call ended; ours; see {@link Outcomes}. */
        OUTCOME {
            @Override
            public String asString() {
                return "breaker.outcome";
            }
        },
        /** Of a transition, the state it left; ours; values as {@link #STATE}'s. */
        FROM {
            @Override
            public String asString() {
                return "breaker.transition.from";
            }
        }
    }

    /** The values of {@code breaker.outcome}. */
    public static final class Outcomes {

        /** Completed within the slow-call threshold (or with slow-call detection off). */
        public static final String SUCCESS = "success";
        /** Counted as a failure: an exception the breaker records, a result {@code record-result} counts. */
        public static final String FAILURE = "failure";
        /** Completed, or cancelled, after the slow-call threshold, without a failure. */
        public static final String SLOW = "slow";
        /** An exception the breaker ignores ({@code ignore-exceptions}, or not in {@code record-exceptions}). */
        public static final String IGNORED = "ignored";
        /** Not let through: the breaker was open (or half-open with its probes taken). */
        public static final String REJECTED = "rejected";
        /** Ended without an outcome: cancelled before any result and before the slow-call threshold. */
        public static final String CANCELLED = "cancelled";

        private Outcomes() {}
    }
}
