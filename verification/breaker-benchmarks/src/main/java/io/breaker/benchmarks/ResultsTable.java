package io.breaker.benchmarks;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a JMH result file of the engine suite ({@code -rf csv}, run with {@code -prof gc}) into the
 * Markdown tables of {@code docs/benchmarks.md}: each of our numbers next to resilience4j's from the
 * same run, the ratio, the goal and whether it is met. The verdicts are computed here from the
 * numbers, never written by hand.
 * <pre>
 * java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.ResultsTable results.csv
 * </pre>
 */
public final class ResultsTable {

    private static final String ENGINE = "io.breaker.benchmarks.engine.";
    /** JMH's gc profiler reports a few thousandths of a byte per op for its own bookkeeping. */
    private static final double ZERO_BYTES = 0.5;
    /** The size of one rejection exception object with compressed oops (checked in docs/benchmarks.md). */
    private static final double ONE_SMALL_ALLOCATION = 64;

    private final Map<String, double[]> scores = new HashMap<>();

    private ResultsTable(List<String> csv) {
        List<String> header = columns(csv.get(0));
        int benchmark = header.indexOf("Benchmark");
        int score = header.indexOf("Score");
        int error = header.indexOf("Score Error (99.9%)");
        int slowCalls = header.indexOf("Param: slowCalls");
        int window = header.indexOf("Param: window");
        for (String line : csv.subList(1, csv.size())) {
            List<String> row = columns(line);
            String key = row.get(benchmark).replace(ENGINE, "") + param(row, slowCalls) + param(row, window);
            scores.put(key, new double[] {number(row.get(score)), number(row.get(error))});
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ResultsTable <jmh-result.csv>");
            System.exit(2);
        }
        new ResultsTable(Files.readAllLines(Path.of(args[0]))).print();
    }

    /** The floor benchmark that makes a clock pair and one shared atomic increment in each call. */
    private static final String TOGETHER = "clockPairThenSharedAtomic";

    private static final String[] THREADS = {"OneThread", "TwoThreads", "FourThreads"};
    private static final int[] THREAD_COUNTS = {1, 2, 4};

    private void print() {
        if (has("FloorOneThread.clockPair")) {
            printFloors();
        }
        if (has("ClosedOneThread.breakerExecute ON COUNT_100")) {
            printClosed();
        }
        if (has("ClosedWithFailuresOneThread.breakerPermissionAndRecord")) {
            printClosedWithFailures();
        }
        if (has("OpenOneThread.breakerTryAcquirePermission")) {
            printOpen();
        }
        if (has("io.breaker.benchmarks.redis.SharedClosedOneThread.inMemoryExecute")) {
            if (has("FloorOneThread.nanoTime")) {
                System.out.printf("One `System.nanoTime()` in this run: %s ns%n%n", ns("FloorOneThread.nanoTime"));
            }
            printShared();
        }
    }

    private void printFloors() {
        boolean together = has("FloorOneThread." + TOGETHER);
        System.out.println("| threads | `System.nanoTime()` | clock pair | shared atomic increment"
                + (together ? " | clock pair + shared atomic, measured apart | the same in one call |" : " |"));
        System.out.println(together ? "|---|---|---|---|---|---|" : "|---|---|---|---|");
        for (int t = 0; t < THREADS.length; t++) {
            String floor = "Floor" + THREADS[t] + ".";
            if (has(floor + "nanoTime")) {
                System.out.printf(
                        Locale.ROOT,
                        "| %d | %s | %s | %s",
                        THREAD_COUNTS[t],
                        ns(floor + "nanoTime"),
                        ns(floor + "clockPair"),
                        ns(floor + "sharedAtomic"));
                if (together) {
                    System.out.printf(
                            Locale.ROOT,
                            " | %.1f | %s |%n",
                            score(floor + "clockPair") + score(floor + "sharedAtomic"),
                            ns(floor + TOGETHER));
                } else {
                    System.out.println(" |");
                }
            }
        }
        System.out.println();
    }

    /**
     * CLOSED success path. Floor: slow-call detection on, a clock pair and one shared atomic in one
     * call ({@code Floor.clockPairThenSharedAtomic}; in a result file from before that benchmark, the
     * sum of the two measured apart); off, the shared atomic (plus one clock reading for a time window,
     * which must know the second).
     */
    private void printClosed() {
        System.out.println("| threads | window | slow-call detection | path | breaker ns/op | resilience4j ns/op"
                + " | Failsafe ns/op | floor ns/op | breaker / r4j | breaker / Failsafe | breaker / floor"
                + " | time / count window | B/op (breaker, r4j, Failsafe) | goals | met? |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (int t = 0; t < THREADS.length; t++) {
            String threads = THREADS[t];
            if (!has("Closed" + threads + ".breakerExecute ON COUNT_100")) {
                continue;
            }
            for (String window : new String[] {"COUNT_100", "TIME_10S"}) {
                for (String slowCalls : new String[] {"ON", "OFF"}) {
                    String params = " " + slowCalls + " " + window;
                    String floor = "Floor" + threads + ".";
                    double floorNs = slowCalls.equals("ON")
                            ? (has(floor + TOGETHER)
                                    ? score(floor + TOGETHER)
                                    : score(floor + "clockPair") + score(floor + "sharedAtomic"))
                            : score(floor + "sharedAtomic")
                                    + (window.equals("TIME_10S") ? score(floor + "nanoTime") : 0);
                    for (String[] path : new String[][] {
                        {"`execute`", "breakerExecute", "r4jExecuteSupplier", "failsafeGet"},
                        {
                            "permission + record",
                            "breakerPermissionAndRecord",
                            "r4jPermissionAndRecord",
                            "failsafePermissionAndRecord"
                        },
                        {
                            "permission + record, readings given",
                            "breakerPermissionAndRecordReadings",
                            "r4jPermissionAndRecord",
                            "failsafePermissionAndRecord"
                        }
                    }) {
                        String ours = "Closed" + threads + "." + path[1] + params;
                        String theirs = "Closed" + threads + "." + path[2] + params;
                        String failsafe = "FailsafeClosed" + threads + "." + path[3] + " " + window;
                        boolean withFailsafe = slowCalls.equals("OFF") && has(failsafe);
                        boolean floorGoal =
                                THREAD_COUNTS[t] > 1 && (slowCalls.equals("ON") || window.equals("COUNT_100"));
                        double oursNs = score(ours);
                        double timeOverCount = window.equals("TIME_10S")
                                ? oursNs / score("Closed" + threads + "." + path[1] + " " + slowCalls + " COUNT_100")
                                : Double.NaN;
                        StringBuilder goals = new StringBuilder("< r4j");
                        boolean met = oursNs < score(theirs) && score(ours + ".gc") < ZERO_BYTES;
                        if (withFailsafe) {
                            goals.append(", < Failsafe");
                            met &= oursNs < score(failsafe);
                        }
                        if (floorGoal) {
                            goals.append(", ≤ 1.5x floor");
                            met &= oursNs <= 1.5 * floorNs;
                        }
                        if (!Double.isNaN(timeOverCount)) {
                            goals.append(", ≤ 1.3x count");
                            met &= timeOverCount <= 1.3;
                        }
                        goals.append(", 0 B");
                        System.out.printf(
                                Locale.ROOT,
                                "| %d | %s | %s | %s | %s | %s | %s | %.1f | %.2fx | %s | %.2fx | %s"
                                        + " | %s, %s, %s | %s | %s |%n",
                                THREAD_COUNTS[t],
                                window,
                                slowCalls,
                                path[0],
                                ns(ours),
                                ns(theirs),
                                withFailsafe ? ns(failsafe) : "—",
                                floorNs,
                                oursNs / score(theirs),
                                withFailsafe ? String.format(Locale.ROOT, "%.2fx", oursNs / score(failsafe)) : "—",
                                oursNs / floorNs,
                                Double.isNaN(timeOverCount) ? "" : String.format(Locale.ROOT, "%.2fx", timeOverCount),
                                bytes(ours),
                                bytes(theirs),
                                withFailsafe ? bytes(failsafe) : "—",
                                goals,
                                met ? "yes" : "**no**");
                    }
                }
            }
        }
        System.out.println();
    }

    /**
     * The two-step CLOSED path of a count window that always holds a failure or two (one call in 50
     * fails): every call goes through the ring. Floor: the shared atomic. Reported, no goal.
     */
    private void printClosedWithFailures() {
        System.out.println("| threads | breaker ns/op | resilience4j ns/op | Failsafe ns/op | shared atomic ns/op"
                + " | breaker / r4j | breaker / Failsafe | breaker / shared atomic | B/op (breaker, r4j, Failsafe) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (int t = 0; t < THREADS.length; t++) {
            String prefix = "ClosedWithFailures" + THREADS[t] + ".";
            String ours = prefix + "breakerPermissionAndRecord";
            if (!has(ours)) {
                continue;
            }
            String theirs = prefix + "r4jPermissionAndRecord";
            String failsafe = prefix + "failsafePermissionAndRecord";
            String atomic = "Floor" + THREADS[t] + ".sharedAtomic";
            System.out.printf(
                    Locale.ROOT,
                    "| %d | %s | %s | %s | %s | %.2fx | %.2fx | %s | %s, %s, %s |%n",
                    THREAD_COUNTS[t],
                    ns(ours),
                    ns(theirs),
                    ns(failsafe),
                    has(atomic) ? ns(atomic) : "—",
                    score(ours) / score(theirs),
                    score(ours) / score(failsafe),
                    has(atomic) ? String.format(Locale.ROOT, "%.2fx", score(ours) / score(atomic)) : "—",
                    bytes(ours),
                    bytes(theirs),
                    bytes(failsafe));
        }
        System.out.println();
    }

    private void printOpen() {
        System.out.println(
                "| threads | OPEN path | breaker ns/op | resilience4j ns/op | Failsafe ns/op | one clock read"
                        + " | breaker / Failsafe | breaker / r4j | B/op (breaker, r4j, Failsafe) | goal | met? |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (int t = 0; t < THREADS.length; t++) {
            String open = "Open" + THREADS[t] + ".";
            if (!has(open + "breakerTryAcquirePermission")) {
                continue;
            }
            String clock = "Floor" + THREADS[t] + ".nanoTime";
            openRow(
                    THREAD_COUNTS[t],
                    "permission check (false)",
                    open + "breakerTryAcquirePermission",
                    open + "r4jTryAcquirePermission",
                    open + "failsafeTryAcquirePermit",
                    clock,
                    "≤ Failsafe, 0 B",
                    score(open + "breakerTryAcquirePermission") <= score(open + "failsafeTryAcquirePermit")
                            && score(open + "breakerTryAcquirePermission.gc") < ZERO_BYTES);
            openRow(
                    THREAD_COUNTS[t],
                    "`execute` that throws (caught)",
                    open + "breakerExecuteRejected",
                    open + "r4jExecuteSupplierRejected",
                    open + "failsafeGetRejected",
                    clock,
                    "≤ 0.05x r4j, one small allocation",
                    score(open + "breakerExecuteRejected") <= 0.05 * score(open + "r4jExecuteSupplierRejected")
                            && score(open + "breakerExecuteRejected.gc") < ONE_SMALL_ALLOCATION);
            openRow(
                    THREAD_COUNTS[t],
                    "`execute` that throws, r4j without stack trace (reference)",
                    open + "breakerExecuteRejected",
                    open + "r4jNoStackTraceExecuteSupplierRejected",
                    open + "failsafeGetRejected",
                    clock,
                    "(reference)",
                    null);
        }
        System.out.println();
    }

    private void openRow(
            int threads,
            String path,
            String ours,
            String theirs,
            String failsafe,
            String clock,
            String goal,
            @Nullable Boolean met) {
        System.out.printf(
                Locale.ROOT,
                "| %d | %s | %s | %s | %s | %s | %.2fx | %.3fx | %s, %s, %s | %s | %s |%n",
                threads,
                path,
                ns(ours),
                ns(theirs),
                ns(failsafe),
                ns(clock),
                score(ours) / score(failsafe),
                score(ours) / score(theirs),
                bytes(ours),
                bytes(theirs),
                bytes(failsafe),
                goal,
                met == null ? "" : met ? "yes" : "**no**");
    }

    /** The Redis-backed suite, when the file holds it. */
    private void printShared() {
        System.out.println(
                "| threads | in memory ns/op | Redis-backed ns/op | resilience4j ns/op | Redis-backed / in memory"
                        + " | goal | met? | B/op (in memory, Redis-backed, r4j) |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int t = 0; t < THREADS.length; t++) {
            String shared = "io.breaker.benchmarks.redis.SharedClosed" + THREADS[t] + ".";
            if (!has(shared + "inMemoryExecute")) {
                continue;
            }
            double ratio = score(shared + "redisBackedExecute") / score(shared + "inMemoryExecute");
            System.out.printf(
                    Locale.ROOT,
                    "| %d | %s | %s | %s | %.2fx | ≤ 2x, 0 B | %s | %s, %s, %s |%n",
                    THREAD_COUNTS[t],
                    ns(shared + "inMemoryExecute"),
                    ns(shared + "redisBackedExecute"),
                    ns(shared + "r4jExecuteSupplier"),
                    ratio,
                    ratio <= 2 && score(shared + "redisBackedExecute.gc") < ZERO_BYTES ? "yes" : "**no**",
                    bytes(shared + "inMemoryExecute"),
                    bytes(shared + "redisBackedExecute"),
                    bytes(shared + "r4jExecuteSupplier"));
        }
        System.out.println();
    }

    private boolean has(String key) {
        return scores.containsKey(key);
    }

    private String ns(String key) {
        double[] value = value(key);
        return String.format(Locale.ROOT, value[0] < 100 ? "%.1f ± %.1f" : "%.0f ± %.0f", value[0], value[1]);
    }

    private String bytes(String key) {
        double value = score(key + ".gc");
        return value < ZERO_BYTES ? "0" : String.format(Locale.ROOT, "%.0f", value);
    }

    private double score(String key) {
        return value(key)[0];
    }

    /** A benchmark's score; {@code name.gc} is its gc.alloc.rate.norm, wherever JMH put the parameters. */
    private double[] value(String key) {
        String lookup = key;
        if (key.contains(".gc")) {
            String[] parts = key.replace(".gc", "").split(" ", 2);
            lookup = parts[0] + ":gc.alloc.rate.norm" + (parts.length > 1 ? " " + parts[1] : "");
        }
        double[] value = scores.get(lookup);
        if (value == null) {
            throw new IllegalArgumentException("No result for " + lookup + " (run the whole suite with -prof gc)");
        }
        return value;
    }

    /** " VALUE" of a parameter column, or "" for a benchmark without that parameter. */
    private static String param(List<String> row, int column) {
        return column >= 0 && column < row.size() && !row.get(column).isEmpty() ? " " + row.get(column) : "";
    }

    private static List<String> columns(String line) {
        return List.of(line.replace("\"", "").split(",", -1));
    }

    private static double number(String text) {
        return text.isEmpty() || text.equals("NaN") ? Double.NaN : Double.parseDouble(text);
    }
}
