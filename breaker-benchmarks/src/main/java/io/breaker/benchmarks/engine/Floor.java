package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What the machine charges for the one thing a timed call cannot avoid: reading the monotonic clock.
 * Measured in the same run as the breakers, so their numbers can be read against it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
public class Floor {

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    /** The same on two threads at once: what each of two concurrent callers pays per reading. */
    @Benchmark
    @Threads(2)
    public long nanoTimeOnTwoThreads() {
        return System.nanoTime();
    }
}
