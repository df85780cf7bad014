package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link Floor} on one thread. */
@Threads(1)
public class FloorOneThread extends Floor {}
