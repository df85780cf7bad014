package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link FailsafeClosedPath} on four threads. */
@Threads(4)
public class FailsafeClosedFourThreads extends FailsafeClosedPath {}
