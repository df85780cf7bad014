package io.breaker;

/** Why a breaker changed state. */
public enum TransitionCause {

    /** The failure rate in the window reached the threshold. */
    FAILURE_RATE,

    /** The slow-call rate in the window reached the threshold. */
    SLOW_CALL_RATE,

    /** The wait in OPEN elapsed and a caller became a probe. */
    WAIT_ELAPSED,

    /** A probe in HALF_OPEN failed. */
    PROBE_FAILED,

    /** Enough probes in HALF_OPEN succeeded. */
    PROBES_SUCCEEDED,

    /** An operator forced or released the breaker. */
    OPERATOR,

    /**
     * A shared breaker's probe lease (the fleet's permission for this instance to probe) ran out before
     * its probe reported or before it was used: the instance goes back to OPEN and asks the fleet
     * again, since another instance may hold the next lease.
     */
    PROBE_LEASE_EXPIRED,

    /**
     * A shared breaker's store lost its state (for example Redis restarted without persistence, failed
     * over, was flushed or evicted the keys) and the state came back from the instances' memory.
     */
    STORE_RESET,

    /**
     * A shared breaker's store cannot be reached and the store's failure mode rejects calls meanwhile;
     * not a verdict on the protected dependency.
     */
    STORE_UNAVAILABLE
}
