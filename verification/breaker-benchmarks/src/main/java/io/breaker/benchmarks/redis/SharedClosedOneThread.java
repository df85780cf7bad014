package io.breaker.benchmarks.redis;

import org.openjdk.jmh.annotations.Threads;

/** {@link SharedClosedPath} on one thread. */
@Threads(1)
public class SharedClosedOneThread extends SharedClosedPath {}
