package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link OpenPath} on one thread. */
@Threads(1)
public class OpenOneThread extends OpenPath {}
