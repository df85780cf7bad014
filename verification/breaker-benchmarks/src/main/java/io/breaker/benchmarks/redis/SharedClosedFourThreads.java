package io.breaker.benchmarks.redis;

import org.openjdk.jmh.annotations.Threads;

/** {@link SharedClosedPath} on four threads calling one breaker of each kind. */
@Threads(4)
public class SharedClosedFourThreads extends SharedClosedPath {}
