package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link ClosedWithFailures} on four threads (two on each core of a 2-core host) calling one shared breaker of each kind. */
@Threads(4)
public class ClosedWithFailuresFourThreads extends ClosedWithFailures {}
