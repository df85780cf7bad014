package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link ClosedWithFailures} on one thread. */
@Threads(1)
public class ClosedWithFailuresOneThread extends ClosedWithFailures {}
