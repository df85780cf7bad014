package io.breaker.benchmarks.cloud;

import org.openjdk.jmh.annotations.Threads;

/** {@link SpringCloudPath} on four threads calling one shared breaker of each kind (two per core here). */
@Threads(4)
public class SpringCloudFourThreads extends SpringCloudPath {}
