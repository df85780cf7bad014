package io.breaker.benchmarks.engine;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.benchmarks.engine.Alike.SlowCalls;
import io.breaker.benchmarks.engine.Alike.Window;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reports what idle breakers cost in memory, and whether tripping many of them starts threads, for
 * ours, resilience4j and (heap only) Failsafe, configured alike. A plain program, not a JMH benchmark:
 * <pre>
 * java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.engine.Footprint [heapSample] [tripped]
 * </pre>
 * <ul>
 *   <li>Retained heap: creates {@code heapSample} breakers (default 20,000) and holds them, with full
 *       collections before and after; the difference in used heap, divided by the count, is the heap
 *       one idle breaker keeps alive. The configs and the breaker names exist before the first reading,
 *       so neither is counted. The median of three rounds is reported.</li>
 *   <li>Threads: counts live threads, creates and trips {@code tripped} breakers (default 100,000),
 *       counts again, waits past the open-state wait and counts again. resilience4j is given its
 *       automatic OPEN to HALF_OPEN transition, the feature that needs a thread.</li>
 * </ul>
 */
public final class Footprint {

    private static final int ROUNDS = 3;
    private static final Duration SHORT_WAIT = Duration.ofSeconds(2);
    private static final IOException FAILURE = new IOException("the dependency is down");
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private Footprint() {}

    public static void main(String[] args) throws InterruptedException {
        int heapSample = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int tripped = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        System.out.printf(
                "JVM: %s %s, %d CPUs, max heap %d MB, GC %s%n",
                System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(gc -> gc.getName())
                        .collect(Collectors.joining(", ")));

        System.out.printf("%nRetained heap per idle breaker (%,d breakers, median of %d rounds)%n", heapSample, ROUNDS);
        for (Window window : Window.values()) {
            BreakerConfig ours = Alike.ours(window, SlowCalls.ON, Alike.LONG_WAIT);
            CircuitBreakerConfig theirs = Alike.theirsDefault(window, SlowCalls.ON, Alike.LONG_WAIT);
            long oursBytes = retainedPerBreaker(heapSample, name -> CircuitBreaker.of(name, ours));
            long theirsBytes = retainedPerBreaker(
                    heapSample, name -> io.github.resilience4j.circuitbreaker.CircuitBreaker.of(name, theirs));
            // Failsafe's breakers take no name; its builder's config is shared, as ours and resilience4j's are.
            dev.failsafe.CircuitBreakerConfig<Integer> failsafe =
                    Alike.failsafe(window, Alike.LONG_WAIT).getConfig();
            long failsafeBytes = retainedPerBreaker(
                    heapSample,
                    name -> dev.failsafe.CircuitBreaker.builder(failsafe).build());
            System.out.printf(
                    "  %-9s  breaker %,7d B   resilience4j %,7d B   Failsafe %,7d B   ratio to r4j %.3f,"
                            + " to Failsafe %.3f%n",
                    window,
                    oursBytes,
                    theirsBytes,
                    failsafeBytes,
                    (double) oursBytes / theirsBytes,
                    (double) oursBytes / failsafeBytes);
        }

        System.out.printf(
                "%nLive threads around creating and tripping %,d breakers (wait in OPEN %d s)%n",
                tripped, SHORT_WAIT.toSeconds());
        oursThreads(tripped);
        theirsThreads(tripped);
    }

    /** Retained heap per object made by {@code factory}, median of three rounds (also used for Redis-backed breakers). */
    public static long retainedPerBreaker(int count, Function<String, Object> factory) {
        String[] names = new String[count];
        for (int i = 0; i < count; i++) {
            names[i] = "breaker-" + i;
        }
        // Load and compile what creating a breaker needs before the first reading.
        for (int i = 0; i < Math.min(count, 2_000); i++) {
            factory.apply(names[i]);
        }
        long[] perBreaker = new long[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            Object[] held = new Object[count];
            long before = settledUsedHeap();
            for (int i = 0; i < count; i++) {
                held[i] = factory.apply(names[i]);
            }
            long after = settledUsedHeap();
            Reference.reachabilityFence(held);
            perBreaker[round] = (after - before) / count;
        }
        Reference.reachabilityFence(names);
        Arrays.sort(perBreaker);
        return perBreaker[ROUNDS / 2];
    }

    /** Used heap after full collections, once two readings in a row agree (or after ten tries). */
    private static long settledUsedHeap() {
        long previous = -1;
        for (int attempt = 0; attempt < 10; attempt++) {
            System.gc();
            sleep(50);
            long used = MEMORY.getHeapMemoryUsage().getUsed();
            if (used == previous) {
                return used;
            }
            previous = used;
        }
        return previous;
    }

    private static void oursThreads(int count) throws InterruptedException {
        BreakerConfig config = Alike.ours(Window.COUNT_100, SlowCalls.ON, SHORT_WAIT);
        Set<String> before = liveThreadNames();
        CircuitBreaker[] breakers = new CircuitBreaker[count];
        for (int i = 0; i < count; i++) {
            breakers[i] = CircuitBreaker.of("breaker-" + i, config);
            for (int call = 0; call < Alike.MINIMUM_CALLS; call++) {
                breakers[i].onError(breakers[i].tryAcquirePermit(), 0L, FAILURE);
            }
        }
        Set<String> afterTrip = liveThreadNames();
        long open =
                Arrays.stream(breakers).filter(b -> b.getState() == State.OPEN).count();
        TimeUnit.MILLISECONDS.sleep(SHORT_WAIT.toMillis() + 1_000);
        Set<String> afterWait = liveThreadNames();
        long halfOpenBeforeCall = Arrays.stream(breakers)
                .filter(b -> b.getState() == State.HALF_OPEN)
                .count();
        // The wait has elapsed: the next caller moves each breaker to HALF_OPEN, on its own thread.
        long probes = Arrays.stream(breakers)
                .filter(b -> b.tryAcquirePermit() != CircuitBreaker.NO_PERMIT)
                .count();
        Set<String> afterProbe = liveThreadNames();
        long halfOpen = Arrays.stream(breakers)
                .filter(b -> b.getState() == State.HALF_OPEN)
                .count();
        System.out.printf(
                "  breaker:      before %d, after tripping %d (%,d OPEN), after the wait %d"
                        + " (%,d HALF_OPEN until a call arrives), after one call each %d (%,d probes admitted,"
                        + " %,d HALF_OPEN)%s%n",
                before.size(),
                afterTrip.size(),
                open,
                afterWait.size(),
                halfOpenBeforeCall,
                afterProbe.size(),
                probes,
                halfOpen,
                newThreads(before, afterProbe));
        Reference.reachabilityFence(breakers);
    }

    private static void theirsThreads(int count) throws InterruptedException {
        CircuitBreakerConfig config = Alike.theirs(Window.COUNT_100, SlowCalls.ON, SHORT_WAIT)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build();
        Set<String> before = liveThreadNames();
        io.github.resilience4j.circuitbreaker.CircuitBreaker[] breakers =
                new io.github.resilience4j.circuitbreaker.CircuitBreaker[count];
        for (int i = 0; i < count; i++) {
            breakers[i] = io.github.resilience4j.circuitbreaker.CircuitBreaker.of("breaker-" + i, config);
            for (int call = 0; call < Alike.MINIMUM_CALLS; call++) {
                breakers[i].tryAcquirePermission();
                breakers[i].onError(0L, TimeUnit.NANOSECONDS, FAILURE);
            }
        }
        Set<String> afterTrip = liveThreadNames();
        long open = Arrays.stream(breakers)
                .filter(b -> b.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN)
                .count();
        TimeUnit.MILLISECONDS.sleep(SHORT_WAIT.toMillis() + 1_000);
        Set<String> afterWait = liveThreadNames();
        long halfOpen = Arrays.stream(breakers)
                .filter(b -> b.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.HALF_OPEN)
                .count();
        System.out.printf(
                "  resilience4j: before %d, after tripping %d (%,d OPEN), after the wait %d"
                        + " (%,d HALF_OPEN, moved by its scheduler)%s%n",
                before.size(), afterTrip.size(), open, afterWait.size(), halfOpen, newThreads(before, afterWait));
        Reference.reachabilityFence(breakers);
    }

    private static Set<String> liveThreadNames() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(thread -> thread.getName() + (thread.isDaemon() ? " (daemon)" : ""))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String newThreads(Set<String> before, Set<String> after) {
        Set<String> added = new TreeSet<>(after);
        added.removeAll(before);
        return added.isEmpty() ? "; no new thread" : "; new threads: " + added;
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
