package io.breaker.benchmarks;

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
 * java -cp breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.ResultsTable results.csv
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
            String key = row.get(benchmark).replace(ENGINE, "")
                    + param(row, slowCalls) + param(row, window);
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

    private void print() {
        System.out.printf("System.nanoTime() in this run: %s ns on one thread, %s ns on each of two threads"
                + " (a timed call reads it twice)%n%n", ns("Floor.nanoTime"), ns("Floor.nanoTimeOnTwoThreads"));

        System.out.println("| threads | window | slow-call detection | path | breaker ns/op | resilience4j ns/op"
                + " | ratio | goal | met? | breaker B/op | resilience4j B/op | r4j LOCK_FREE ns/op (ratio) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (String threads : new String[] {"ClosedOneThread", "ClosedTwoThreads"}) {
            double goal = threads.equals("ClosedOneThread") ? 0.5 : 0.33;
            for (String window : new String[] {"COUNT_100", "TIME_10S"}) {
                for (String slowCalls : new String[] {"ON", "OFF"}) {
                    String params = " " + slowCalls + " " + window;
                    closedRow(threads, window, slowCalls, "`execute` / `executeSupplier`",
                            threads + ".breakerExecute" + params, threads + ".r4jExecuteSupplier" + params,
                            threads + ".r4jLockFreeExecuteSupplier" + params, goal);
                    closedRow(threads, window, slowCalls, "permission + record",
                            threads + ".breakerPermissionAndRecord" + params,
                            threads + ".r4jPermissionAndRecord" + params, null, goal);
                }
            }
        }

        System.out.println();
        System.out.println("| OPEN path | breaker ns/op | resilience4j ns/op | ratio | goal | met? | breaker B/op"
                + " | resilience4j B/op |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        openRow("permission check (`tryAcquirePermission` false)", "OpenPath.breakerTryAcquirePermission",
                "OpenPath.r4jTryAcquirePermission", 0.25, ZERO_BYTES, "≤ 0.25x, 0 B");
        openRow("`execute` that throws (caught)", "OpenPath.breakerExecuteRejected",
                "OpenPath.r4jExecuteSupplierRejected", 0.1, ONE_SMALL_ALLOCATION, "≤ 0.1x, one small allocation");
        openRow("`execute` that throws, vs r4j `writableStackTraceEnabled(false)` (reference)",
                "OpenPath.breakerExecuteRejected", "OpenPath.r4jNoStackTraceExecuteSupplierRejected", 0.1,
                ONE_SMALL_ALLOCATION, "(reference)");
    }

    private void closedRow(String threads, String window, String slowCalls, String path, String ours,
                           String theirs, String lockFree, double goal) {
        double ratio = score(ours) / score(theirs);
        double oursBytes = score(ours + ".gc");
        boolean alike = slowCalls.equals("ON");
        String goalText = alike ? String.format(Locale.ROOT, "≤ %.2fx, 0 B", goal) : "0 B (r4j still times calls)";
        boolean met = (!alike || ratio <= goal) && oursBytes < ZERO_BYTES;
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.2fx | %s | %s | %s | %s | %s |%n",
                threads.equals("ClosedOneThread") ? "1" : "2", window, slowCalls, path, ns(ours), ns(theirs), ratio,
                goalText, met ? "yes" : "**no**", bytes(ours), bytes(theirs),
                lockFree == null ? "" : String.format(Locale.ROOT, "%s (%.2fx)", ns(lockFree), score(ours) / score(lockFree)));
    }

    private void openRow(String path, String ours, String theirs, double goal, double maxBytes, String goalText) {
        double ratio = score(ours) / score(theirs);
        boolean met = ratio <= goal && score(ours + ".gc") < maxBytes;
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %.3fx | %s | %s | %s | %s |%n", path, ns(ours), ns(theirs),
                ratio, goalText, goalText.startsWith("(") ? "" : met ? "yes" : "**no**", bytes(ours), bytes(theirs));
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
