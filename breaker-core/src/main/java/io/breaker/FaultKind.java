package io.breaker;

/** What a breaker's fault injection did to a call (see {@link Faults}). */
public enum FaultKind {
    /** The call failed with the injected exception before its method ran. */
    FAILURE,
    /** The call was delayed by the injected latency before its method ran. */
    LATENCY
}
