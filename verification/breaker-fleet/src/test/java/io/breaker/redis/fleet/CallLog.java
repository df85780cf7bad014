package io.breaker.redis.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;

/** Every call the callers made to the instances during one round, as the callers saw it. */
final class CallLog {

    static final int LIVE = 200;
    static final int FAILED = 502;
    static final int REJECTED = 503;
    /** A call that got no HTTP answer at all (connection refused, timeout). */
    static final int NO_ANSWER = -1;

    /** One call: its instance, when it started and ended ({@code System.nanoTime}), its status. */
    record Call(int instance, long start, long end, int status, String error) {

        long latencyNanos() {
            return end - start;
        }

        /** Anything a caller should never see: the breaker answers live, failed or rejected. */
        boolean isError() {
            return status != LIVE && status != FAILED && status != REJECTED;
        }
    }

    private final List<Call> calls = new ArrayList<>();

    synchronized void add(Call call) {
        calls.add(call);
    }

    /**
     * Starts watching for the moment every one of {@code instances} has answered {@code status} to a
     * call it started from now on.
     */
    synchronized Watch watch(int instances, int status) {
        // The size is read before the time: every call started from then on is appended after that index.
        return new Watch(instances, status, calls.size(), System.nanoTime());
    }

    /** Reads only the calls appended since its last look, so that polling it stays cheap. */
    final class Watch {

        private final int status;
        private final long since;
        private final long[] first;
        private int scanned;

        private Watch(int instances, int status, int index, long since) {
            this.status = status;
            this.since = since;
            this.first = new long[instances];
            this.scanned = index;
        }

        /** When the watch started ({@code System.nanoTime}). */
        long since() {
            return since;
        }

        /** The latest of the instances' first answers, once every instance has answered. */
        OptionalLong everyAnswered() {
            synchronized (CallLog.this) {
                for (; scanned < calls.size(); scanned++) {
                    Call call = calls.get(scanned);
                    if (call.status() == status && call.start() >= since && first[call.instance()] == 0) {
                        first[call.instance()] = call.end();
                    }
                }
            }
            long latest = since;
            for (long answered : first) {
                if (answered == 0) {
                    return OptionalLong.empty();
                }
                latest = Math.max(latest, answered);
            }
            return OptionalLong.of(latest);
        }

        /** The instances that have not answered yet. */
        List<Integer> missing() {
            List<Integer> missing = new ArrayList<>();
            for (int i = 0; i < first.length; i++) {
                if (first[i] == 0) {
                    missing.add(i);
                }
            }
            return missing;
        }
    }

    /** The calls that were under way at some moment in {@code [from, to]}. */
    synchronized List<Call> overlapping(long from, long to) {
        return select(call -> call.end() >= from && call.start() <= to);
    }

    /** The calls that ended in {@code [from, to)}. */
    synchronized List<Call> endedBetween(long from, long to) {
        return select(call -> call.end() >= from && call.end() < to);
    }

    synchronized List<Call> all() {
        return List.copyOf(calls);
    }

    private List<Call> select(Predicate<Call> filter) {
        List<Call> selected = new ArrayList<>();
        for (Call call : calls) {
            if (filter.test(call)) {
                selected.add(call);
            }
        }
        return selected;
    }

    /** The latency below which {@code percent} % of the calls stayed, in nanoseconds; 0 without calls. */
    static long percentile(List<Call> calls, double percent) {
        if (calls.isEmpty()) {
            return 0;
        }
        long[] latencies = calls.stream().mapToLong(Call::latencyNanos).sorted().toArray();
        int index = (int) Math.ceil(percent / 100.0 * latencies.length) - 1;
        return latencies[Math.max(0, Math.min(latencies.length - 1, index))];
    }

    static long max(List<Call> calls) {
        return calls.stream().mapToLong(Call::latencyNanos).max().orElse(0);
    }

    static List<Call> errors(List<Call> calls) {
        return calls.stream().filter(Call::isError).toList();
    }
}
