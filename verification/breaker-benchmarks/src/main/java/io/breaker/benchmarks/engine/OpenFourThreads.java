package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link OpenPath} on four threads calling one shared breaker. */
@Threads(4)
public class OpenFourThreads extends OpenPath {}
