package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link ClosedPath} on two threads calling one shared breaker: the contended case. */
@Threads(2)
public class ClosedTwoThreads extends ClosedPath {}
