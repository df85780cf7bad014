package io.breaker.benchmarks.engine;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the machine charges for the things a call through any breaker cannot avoid, measured in the
 * same run as the breakers so their numbers can be read against it: one reading of the monotonic
 * clock (an OPEN check), a pair of them (a timed call), and one atomic increment of a counter all
 * threads share (recording a call in a window every thread writes). The thread count is set by
 * {@link FloorOneThread}, {@link FloorTwoThreads} and {@link FloorFourThreads}.
 *
 * <p>The floor of a CLOSED call with slow-call detection is {@link #clockPairThenSharedAtomic}: both
 * in one call, on the same number of threads. The sum {@code clockPair + sharedAtomic} of the parts
 * measured apart is printed next to it; under contention it is lower (see that method).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class Floor {

    private final AtomicLong shared = new AtomicLong();

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    /** Two readings, as a timed call makes (start and end). */
    @Benchmark
    public long clockPair() {
        long start = System.nanoTime();
        return System.nanoTime() - start;
    }

    /**
     * A clock pair, then one {@code getAndIncrement} of the counter every benchmark thread increments:
     * in one call, in the order a timed call through a breaker does them (start, end, record). Apart,
     * {@link #sharedAtomic} runs its increments back to back, and a core that holds the counter's
     * cache line may then increment it several times before another core takes the line; between
     * two clock pairs it rarely can, so each increment pays for the line's move.
     */
    @Benchmark
    public long clockPairThenSharedAtomic() {
        long start = System.nanoTime();
        long duration = System.nanoTime() - start;
        return shared.getAndIncrement() + duration;
    }

    /** One {@code getAndIncrement} of a counter every benchmark thread increments. */
    @Benchmark
    public long sharedAtomic() {
        return shared.getAndIncrement();
    }
}
