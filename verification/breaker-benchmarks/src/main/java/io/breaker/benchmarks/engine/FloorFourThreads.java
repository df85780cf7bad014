package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link Floor} on four threads. */
@Threads(4)
public class FloorFourThreads extends Floor {}
