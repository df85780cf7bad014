package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link Floor} on two threads. */
@Threads(2)
public class FloorTwoThreads extends Floor {}
