package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Threads;

/** {@link FailsafeClosedPath} on one thread. */
@Threads(1)
public class FailsafeClosedOneThread extends FailsafeClosedPath {}
