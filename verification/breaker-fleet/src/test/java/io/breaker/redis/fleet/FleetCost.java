package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;

import java.util.ArrayList;
import java.util.List;

/**
 * What the fleet cost during one period of a run (the warm-up, or one round): the commands the test's
 * redis-server executed meanwhile, read from {@code INFO commandstats} before and after it (for a fleet
 * sharing Redis), and each instance's memory at its end.
 *
 * @param label       "warm-up", "round 3", or a fault's description
 * @param nanos       how long the period took
 * @param instances   instances in the fleet
 * @param commands    what Redis executed during the period, or {@code null} when the store is not Redis
 * @param residentKib each instance's resident set size at the end (KiB; -1 where it could not be read)
 * @param heapBytes   each instance's heap in use at the end (bytes; -1 where it could not be read)
 */
record FleetCost(
        String label,
        long nanos,
        int instances,
        RedisCommandStats commands,
        List<Long> residentKib,
        List<Long> heapBytes) {

    /** A period of the run: warm-up traffic, or a round. */
    @FunctionalInterface
    interface Period {
        void run() throws Exception;
    }

    /** Runs {@code period} and measures what it cost; a period that throws is not measured. */
    static FleetCost measure(String label, FleetProcesses fleet, RedisServer redis, Period period) throws Exception {
        RedisCommandStats before = RedisCommandStats.read(redis);
        FleetCost cost = measure(label, fleet, period);
        RedisCommandStats during = RedisCommandStats.read(redis).since(before);
        return new FleetCost(label, cost.nanos, cost.instances, during, cost.residentKib, cost.heapBytes);
    }

    /** The same without counting commands, for a fleet whose store is not Redis. */
    static FleetCost measure(String label, FleetProcesses fleet, Period period) throws Exception {
        long start = System.nanoTime();
        period.run();
        long took = System.nanoTime() - start;
        List<Long> resident = new ArrayList<>();
        List<Long> heap = new ArrayList<>();
        for (int i = 0; i < fleet.size(); i++) {
            resident.add(fleet.residentKib(i));
            heap.add(fleet.heapUsedBytes(i));
        }
        return new FleetCost(label, took, fleet.size(), null, resident, heap);
    }

    double seconds() {
        return nanos / 1e9;
    }

    /** Every command Redis executed (those inside scripts included), per instance and second. */
    double commandsPerInstanceSecond() {
        return commands == null ? 0 : perInstanceSecond(commands.calls());
    }

    /** Scripts the instances sent, per instance and second. */
    double scriptsPerInstanceSecond() {
        return commands == null ? 0 : perInstanceSecond(commands.scriptCalls());
    }

    /** Redis's wall-clock time per script (its commands included, not reading the request or writing the answer), µs. */
    double microsPerScript() {
        long scripts = commands == null ? 0 : commands.scriptCalls();
        return scripts == 0 ? 0 : (double) commands.scriptMicros() / scripts;
    }

    private double perInstanceSecond(long count) {
        return instances == 0 || nanos == 0 ? 0 : count / seconds() / instances;
    }

    /** The median of the values read (-1 left out), or -1 when none was. */
    static long median(List<Long> values) {
        long[] read = values.stream()
                .mapToLong(Long::longValue)
                .filter(v -> v >= 0)
                .sorted()
                .toArray();
        return read.length == 0 ? -1 : read[(read.length - 1) / 2];
    }

    /** The largest value read, or -1 when none was. */
    static long max(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElse(-1);
    }
}
