package io.breaker.sample.simulator;

/** How the simulated wholesaler behaves; an operator switches it at runtime. */
public enum WholesalerMode {

    /** Answers at once: 200 with the delivery days, or 404 for a book it does not know. */
    HEALTHY,

    /** Answers correctly, but only after {@code bookshop.simulator.slow-delay}: longer than the bookshop's read timeout. */
    SLOW,

    /** Answers every request with 503 Service Unavailable. */
    FAILING,

    /** Answers every request with 429 Too Many Requests. */
    THROTTLING,

    /** Not listening at all: every connection is refused. */
    DOWN
}
