package io.breaker.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a JMH result file of the Spring Cloud CircuitBreaker suite ({@code io.breaker.benchmarks.cloud},
 * {@code -rf csv}, run with {@code -prof gc}) into the Markdown tables of {@code docs/benchmarks.md}:
 * our factory's call next to resilience4j's (as it comes, and on the caller's thread) from the same run, the
 * ratios, the goals and whether they are met, computed here from the numbers.
 * <pre>
 * java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.SpringCloudTable results.csv
 * </pre>
 */
public final class SpringCloudTable {

    private static final String CLOUD = "io.breaker.benchmarks.cloud.";
    private static final String ALLOCATION = ":gc.alloc.rate.norm";
    /** JMH's gc profiler reports a few thousandths of a byte per op for its own bookkeeping. */
    private static final double ZERO_BYTES = 0.5;
    /** One lambda that captures one reference, with compressed oops: a 12-byte header and a 4-byte field. */
    private static final double ONE_LAMBDA = 16;
    /** The goal: our call at most this fraction of resilience4j's. */
    private static final double TIME_GOAL = 0.1;

    private static final String[] THREADS = {"SpringCloudOneThread", "SpringCloudTwoThreads", "SpringCloudFourThreads"};
    private static final int[] THREAD_COUNTS = {1, 2, 4};
    private static final String[] STATES = {"CLOSED", "OPEN"};
    private static final String OURS = "breakerCreateRun";
    private static final String THEIRS = "r4jCreateRun";
    private static final String THEIRS_CALLER_THREAD = "r4jCallerThreadCreateRun";

    /** Key: class.benchmark[:gc.alloc.rate.norm]/state; value: score and error. */
    private final Map<String, double[]> scores = new HashMap<>();

    private SpringCloudTable(List<String> csv) {
        List<String> header = columns(csv.get(0));
        int benchmark = header.indexOf("Benchmark");
        int score = header.indexOf("Score");
        int error = header.indexOf("Score Error (99.9%)");
        int state = header.indexOf("Param: state");
        for (String line : csv.subList(1, csv.size())) {
            List<String> row = columns(line);
            String key = row.get(benchmark).replace(CLOUD, "") + "/" + row.get(state);
            scores.put(key, new double[] {number(row.get(score)), number(row.get(error))});
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: SpringCloudTable <jmh-result.csv>");
            System.exit(2);
        }
        new SpringCloudTable(Files.readAllLines(Path.of(args[0]))).print();
    }

    private void print() {
        System.out.println(
                "| threads | state | ours ns/op | resilience4j ns/op | ours / r4j"
                        + " | r4j on the caller's thread ns/op | ours / that | ours B/op | r4j B/op | r4j on the caller's thread B/op |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        List<String> goals = new ArrayList<>();
        for (int t = 0; t < THREADS.length; t++) {
            for (String state : STATES) {
                double[] ours = score(THREADS[t], OURS, state, "");
                double[] theirs = score(THREADS[t], THEIRS, state, "");
                double[] plain = score(THREADS[t], THEIRS_CALLER_THREAD, state, "");
                double oursBytes = score(THREADS[t], OURS, state, ALLOCATION)[0];
                double theirsBytes = score(THREADS[t], THEIRS, state, ALLOCATION)[0];
                double plainBytes = score(THREADS[t], THEIRS_CALLER_THREAD, state, ALLOCATION)[0];
                double ratio = ours[0] / theirs[0];
                double plainRatio = ours[0] / plain[0];
                System.out.printf(
                        Locale.ROOT,
                        "| %d | %s | %s | %s | %.3fx | %s | %.3fx | %s | %s | %s |%n",
                        THREAD_COUNTS[t],
                        state,
                        withError(ours),
                        withError(theirs),
                        ratio,
                        withError(plain),
                        plainRatio,
                        bytes(oursBytes),
                        bytes(theirsBytes),
                        bytes(plainBytes));
                goals.add(String.format(
                        Locale.ROOT,
                        "| %d | %s | ours ≤ %.1fx resilience4j (as it comes) | %.3fx | %s |",
                        THREAD_COUNTS[t],
                        state,
                        TIME_GOAL,
                        ratio,
                        met(ratio <= TIME_GOAL)));
                goals.add(String.format(
                        Locale.ROOT,
                        "| %d | %s | ours ≤ %.1fx resilience4j on the caller's thread | %.3fx | %s |",
                        THREAD_COUNTS[t],
                        state,
                        TIME_GOAL,
                        plainRatio,
                        met(plainRatio <= TIME_GOAL)));
                goals.add(String.format(
                        Locale.ROOT,
                        "| %d | %s | ours allocates at most one lambda (%.0f B) per call | %s | %s |",
                        THREAD_COUNTS[t],
                        state,
                        ONE_LAMBDA,
                        bytes(oursBytes),
                        met(oursBytes <= ONE_LAMBDA)));
            }
        }
        System.out.println();
        System.out.println("| threads | state | goal | on this run | met? |");
        System.out.println("|---|---|---|---|---|");
        goals.forEach(System.out::println);
    }

    private double[] score(String threads, String benchmark, String state, String secondary) {
        double[] score = scores.get(threads + "." + benchmark + secondary + "/" + state);
        if (score == null) {
            throw new IllegalArgumentException("no row for " + threads + "." + benchmark + secondary + " with state="
                    + state + " (run with -prof gc, all three thread counts and both states)");
        }
        return score;
    }

    private static String met(boolean met) {
        return met ? "yes" : "**no**";
    }

    private static String withError(double[] score) {
        return round(score[0]) + " ± " + round(score[1]);
    }

    private static String round(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        if (value >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String bytes(double value) {
        return value < ZERO_BYTES ? "0" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static double number(String cell) {
        return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }

    /** The cells of one CSV line as JMH writes it: quoted strings, bare numbers, no embedded quotes. */
    private static List<String> columns(String line) {
        List<String> cells = new ArrayList<>();
        for (String cell : line.split(",", -1)) {
            cells.add(
                    cell.length() >= 2 && cell.startsWith("\"") && cell.endsWith("\"")
                            ? cell.substring(1, cell.length() - 1)
                            : cell);
        }
        return cells;
    }
}
