package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link OpenPath} on two threads calling one shared breaker. */
@Threads(2)
public class OpenTwoThreads extends OpenPath {}
