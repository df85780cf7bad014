package io.breaker.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns the JMH result files of the annotation suite ({@code AnnotatedCall}, {@code -rf csv}, run with
 * {@code -prof gc}), one per Spring Boot line, into the Markdown tables of {@code docs/benchmarks.md}
 * ("The annotation"): every path on every line side by side, with bytes per call and the ratio between
 * the lines, then the goals on each line, for each number of benchmark threads in the files (JMH's
 * {@code Threads} column: 1, 2 and 4 in the suite). The verdicts are computed here from the numbers,
 * never written by hand.
 * <pre>
 * java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.AnnotationTable \
 *     "Boot 3=boot3.csv" "Boot 4=boot4.csv"
 * </pre>
 * Each argument is {@code label=file}; the first line is the one the others are compared with.
 */
public final class AnnotationTable {

    private static final String ANNOTATED_CALL = "io.breaker.benchmarks.spring.AnnotatedCall.";
    /** JMH's gc profiler reports a few thousandths of a byte per op for its own bookkeeping. */
    private static final double ZERO_BYTES = 0.5;

    /** Benchmark method and how the tables name it, in the order of the tables. */
    private static final String[][] PATHS = {
        {"bare", "bare call, no proxy"},
        {"advisorFloor", "floor: pass-through advisor, static pointcut"},
        {"executionAspectFloor", "floor: pass-through `@Around`, `execution` pointcut (plain advice)"},
        {"aspectFloor", "floor: pass-through `@Around`, `@annotation` pointcut"},
        {"circuitProtectedClosed", "`@CircuitProtected`, CLOSED"},
        {"circuitProtectedOpen", "`@CircuitProtected`, OPEN (fallback)"},
        {"r4jCircuitBreakerClosed", "resilience4j `@CircuitBreaker`, CLOSED"},
        {"r4jCircuitBreakerOpen", "resilience4j `@CircuitBreaker`, OPEN (fallback)"},
    };

    /**
     * One line's results: score and error of each benchmark on each thread count, under
     * {@code name@threads}, and its bytes per call under {@code name.gc@threads}.
     */
    private record Line(String label, Map<String, double[]> results) {

        double ns(String benchmark, int threads) {
            return value(benchmark, threads)[0];
        }

        double bytes(String benchmark, int threads) {
            return value(benchmark + ".gc", threads)[0];
        }

        double[] value(String benchmark, int threads) {
            double[] value = results.get(key(benchmark, threads));
            if (value == null) {
                throw new IllegalArgumentException(label + ": no result for " + benchmark + " on " + threads
                        + " thread(s) (run every AnnotatedCall benchmark with -prof gc on every thread count)");
            }
            return value;
        }

        /** The thread counts these results hold, in order. */
        TreeSet<Integer> threadCounts() {
            TreeSet<Integer> counts = new TreeSet<>();
            for (String key : results.keySet()) {
                counts.add(Integer.parseInt(key.substring(key.indexOf('@') + 1)));
            }
            return counts;
        }
    }

    private static String key(String benchmark, int threads) {
        return benchmark + "@" + threads;
    }

    private final List<Line> lines;
    private final TreeSet<Integer> threadCounts;

    private AnnotationTable(List<Line> lines) {
        this.lines = lines;
        this.threadCounts = lines.get(0).threadCounts();
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: AnnotationTable <label>=<jmh-result.csv> [<label>=<jmh-result.csv> ...]");
            System.exit(2);
        }
        List<Line> lines = new ArrayList<>();
        for (String arg : args) {
            int split = arg.indexOf('=');
            if (split <= 0) {
                System.err.println("expected <label>=<jmh-result.csv>, got " + arg);
                System.exit(2);
            }
            lines.add(new Line(arg.substring(0, split), read(Path.of(arg.substring(split + 1)))));
        }
        new AnnotationTable(lines).print();
    }

    /**
     * Score and error per benchmark and thread count ({@code method@threads}); {@code gc.alloc.rate.norm}
     * rows under {@code method.gc@threads}.
     */
    static Map<String, double[]> read(Path csv) throws IOException {
        List<String> rows = Files.readAllLines(csv);
        List<String> header = columns(rows.get(0));
        int benchmark = header.indexOf("Benchmark");
        int score = header.indexOf("Score");
        int error = header.indexOf("Score Error (99.9%)");
        int threads = header.indexOf("Threads");
        Map<String, double[]> results = new HashMap<>();
        for (String line : rows.subList(1, rows.size())) {
            if (line.isBlank() || line.startsWith("\"Benchmark\"")) {
                continue; // a header repeated by concatenated result files
            }
            List<String> row = columns(line);
            String name = row.get(benchmark).replace(ANNOTATED_CALL, "");
            if (name.endsWith(":gc.alloc.rate.norm")) {
                name = name.replace(":gc.alloc.rate.norm", ".gc");
            } else if (name.contains(":")) {
                continue; // the gc profiler's other rows
            }
            String key = key(name, Integer.parseInt(row.get(threads)));
            if (results.put(key, new double[] {number(row.get(score)), number(row.get(error))}) != null) {
                throw new IllegalArgumentException(csv + ": " + key + " appears twice");
            }
        }
        return results;
    }

    private void print() {
        printPaths();
        printGoals();
    }

    /** Every path, one column per line, then each later line against the first, then B/op per line. */
    private void printPaths() {
        Line first = lines.get(0);
        StringBuilder head = new StringBuilder("| threads | path |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (Line line : lines) {
            head.append(' ').append(line.label()).append(" ns/op (± 99.9% error) |");
            rule.append("---|");
        }
        for (Line line : lines.subList(1, lines.size())) {
            head.append(' ')
                    .append(line.label())
                    .append(" / ")
                    .append(first.label())
                    .append(" |");
            rule.append("---|");
        }
        for (Line line : lines) {
            head.append(' ').append(line.label()).append(" B/op |");
            rule.append("---|");
        }
        System.out.println(head);
        System.out.println(rule);
        for (int threads : threadCounts) {
            for (String[] path : PATHS) {
                StringBuilder row = new StringBuilder("| ")
                        .append(threads)
                        .append(" | ")
                        .append(path[1])
                        .append(" |");
                for (Line line : lines) {
                    row.append(' ').append(ns(line.value(path[0], threads))).append(" |");
                }
                for (Line line : lines.subList(1, lines.size())) {
                    row.append(String.format(
                            Locale.ROOT, " %.2fx |", line.ns(path[0], threads) / first.ns(path[0], threads)));
                }
                for (Line line : lines) {
                    row.append(' ').append(bytes(line.bytes(path[0], threads))).append(" |");
                }
                System.out.println(row);
            }
        }
        System.out.println();
    }

    /** The annotation's speed goals, each line against its own floors and its own resilience4j. */
    private void printGoals() {
        StringBuilder head = new StringBuilder("| threads | goal |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (Line line : lines) {
            head.append(' ').append(line.label()).append(" | met? |");
            rule.append("---|---|");
        }
        System.out.println(head);
        System.out.println(rule);
        for (int threads : threadCounts) {
            printGoals(threads);
        }
        System.out.println();
    }

    private void printGoals(int t) {
        goal(
                t,
                "ours adds at most half of resilience4j's overhead over the bare call, CLOSED",
                line -> overhead(line, t, "circuitProtectedClosed", "r4jCircuitBreakerClosed"));
        goal(t, "the same, OPEN", line -> overhead(line, t, "circuitProtectedOpen", "r4jCircuitBreakerOpen"));
        goal(
                t,
                "CLOSED ≤ 0.05x resilience4j",
                line -> ratio(line, t, "circuitProtectedClosed", "r4jCircuitBreakerClosed", 0.05));
        goal(
                t,
                "OPEN ≤ 0.05x resilience4j",
                line -> ratio(line, t, "circuitProtectedOpen", "r4jCircuitBreakerOpen", 0.05));
        goal(
                t,
                "CLOSED at or below the plain-advice floor (`@Around`, `execution` pointcut)",
                line -> ratio(line, t, "circuitProtectedClosed", "executionAspectFloor", 1));
        goal(
                t,
                "CLOSED within 2x of the static-pointcut floor",
                line -> ratio(line, t, "circuitProtectedClosed", "advisorFloor", 2));
        goal(
                t,
                "OPEN against the static-pointcut floor (reference)",
                line -> reference(String.format(
                        Locale.ROOT, "%.2fx", line.ns("circuitProtectedOpen", t) / line.ns("advisorFloor", t))));
        goal(
                t,
                "bytes ours adds to the static-pointcut floor's, CLOSED (reference)",
                line -> reference(bytes(line.bytes("circuitProtectedClosed", t) - line.bytes("advisorFloor", t))
                        + " B (ours " + bytes(line.bytes("circuitProtectedClosed", t)) + ", floor "
                        + bytes(line.bytes("advisorFloor", t)) + ", resilience4j "
                        + bytes(line.bytes("r4jCircuitBreakerClosed", t)) + ")"));
    }

    private interface Verdict {
        /** What was measured, and whether the goal is met ({@code null}: no goal, for reference). */
        String[] of(Line line);
    }

    private void goal(int threads, String name, Verdict verdict) {
        StringBuilder row = new StringBuilder("| ")
                .append(threads)
                .append(" | ")
                .append(name)
                .append(" |");
        for (Line line : lines) {
            String[] cell = verdict.of(line);
            row.append(' ').append(cell[0]).append(" | ").append(cell[1]).append(" |");
        }
        System.out.println(row);
    }

    /** (ours − bare) / (resilience4j − bare) ≤ 0.5. */
    private static String[] overhead(Line line, int threads, String ours, String theirs) {
        double bare = line.ns("bare", threads);
        double oursOver = line.ns(ours, threads) - bare;
        double theirsOver = line.ns(theirs, threads) - bare;
        double ratio = oursOver / theirsOver;
        return new String[] {
            String.format(Locale.ROOT, "%s ns against %s ns: %.3fx", whole(oursOver), whole(theirsOver), ratio),
            met(ratio <= 0.5)
        };
    }

    private static String[] ratio(Line line, int threads, String ours, String against, double limit) {
        double ratio = line.ns(ours, threads) / line.ns(against, threads);
        return new String[] {String.format(Locale.ROOT, "%.3fx", ratio), met(ratio <= limit)};
    }

    private static String[] reference(String measured) {
        return new String[] {measured, ""};
    }

    private static String met(boolean met) {
        return met ? "yes" : "**no**";
    }

    private static String ns(double[] value) {
        return value[0] < 100
                ? String.format(Locale.ROOT, "%.1f ± %.1f", value[0], value[1])
                : whole(value[0]) + " ± " + whole(value[1]);
    }

    private static String whole(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String bytes(double value) {
        return Math.abs(value) < ZERO_BYTES ? "0" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static List<String> columns(String line) {
        return List.of(line.replace("\"", "").split(",", -1));
    }

    private static double number(String text) {
        return text.isEmpty() || text.equals("NaN") ? Double.NaN : Double.parseDouble(text);
    }
}
