package io.breaker.benchmarks.cloud;

import org.openjdk.jmh.annotations.Threads;

/** {@link SpringCloudPath} on one thread. */
@Threads(1)
public class SpringCloudOneThread extends SpringCloudPath {}
