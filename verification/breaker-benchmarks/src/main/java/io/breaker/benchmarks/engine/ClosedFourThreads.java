package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link ClosedPath} on four threads calling one shared breaker (on this 2-core machine, two per core). */
@Threads(4)
public class ClosedFourThreads extends ClosedPath {}
