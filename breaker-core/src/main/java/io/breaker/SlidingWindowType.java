package io.breaker;

/** How a breaker's sliding window measures "recent". */
public enum SlidingWindowType {

    /** The last N calls. */
    COUNT_BASED,

    /** The calls of the last N seconds. */
    TIME_BASED
}
