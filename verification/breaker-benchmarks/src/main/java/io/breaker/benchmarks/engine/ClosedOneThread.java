package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link ClosedPath} on one thread. */
@Threads(1)
public class ClosedOneThread extends ClosedPath {}
