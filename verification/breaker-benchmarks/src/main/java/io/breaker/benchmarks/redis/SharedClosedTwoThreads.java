package io.breaker.benchmarks.redis;

import org.openjdk.jmh.annotations.Threads;

/** {@link SharedClosedPath} on two threads calling one breaker of each kind: the contended case. */
@Threads(2)
public class SharedClosedTwoThreads extends SharedClosedPath {}
