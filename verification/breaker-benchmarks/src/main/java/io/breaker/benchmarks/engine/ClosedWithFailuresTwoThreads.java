package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link ClosedWithFailures} on two threads calling one shared breaker of each kind. */
@Threads(2)
public class ClosedWithFailuresTwoThreads extends ClosedWithFailures {}
