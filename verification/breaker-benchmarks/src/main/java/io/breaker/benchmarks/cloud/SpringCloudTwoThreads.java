package io.breaker.benchmarks.cloud;

import org.openjdk.jmh.annotations.Threads;

/** {@link SpringCloudPath} on two threads calling one shared breaker of each kind. */
@Threads(2)
public class SpringCloudTwoThreads extends SpringCloudPath {}
