package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link FailsafeClosedPath} on two threads. */
@Threads(2)
public class FailsafeClosedTwoThreads extends FailsafeClosedPath {}
