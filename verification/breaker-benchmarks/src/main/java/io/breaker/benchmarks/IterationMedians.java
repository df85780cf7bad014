package io.breaker.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Summarizes an A/B of two jars run alternately, from JMH's own console logs: for each benchmark, the
 * median and the fastest of all measured iterations of each jar, the median of each round, and the
 * second jar against the first. Used by {@code run-annotation-ab.sh}, and usable for any such A/B.
 * <pre>
 * java -cp verification/breaker-benchmarks/target/benchmarks.jar io.breaker.benchmarks.IterationMedians \
 *     out/old-1.txt out/new-1.txt out/old-2.txt out/new-2.txt ...
 * </pre>
 * A log's jar is its file name up to the last {@code -} ({@code old-2.txt}: jar {@code old}); the jars
 * are compared in the order they first appear among the arguments. The verdict "not slower" is computed:
 * the second jar's median is at most the first's plus the spread between the first jar's own round
 * medians (its highest minus its lowest), the noise the first jar showed against itself in the same run.
 */
public final class IterationMedians {

    private static final Pattern BENCHMARK = Pattern.compile("^# Benchmark: (\\S+)");
    private static final Pattern ITERATION = Pattern.compile("^Iteration\\s+\\d+: ([0-9.,]+) (\\S+)");

    private IterationMedians() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: IterationMedians <jar>-<round>.txt ... (JMH console logs of two jars)");
            System.exit(2);
        }
        // jar -> benchmark -> rounds, each the measured iterations of one log
        Map<String, Map<String, List<List<Double>>>> jars = new LinkedHashMap<>();
        String unit = null;
        for (String arg : args) {
            Path log = Path.of(arg);
            String file = log.getFileName().toString();
            int dash = file.lastIndexOf('-');
            if (dash <= 0) {
                throw new IllegalArgumentException("expected <jar>-<round>.txt, got " + file);
            }
            Map<String, List<List<Double>>> benchmarks =
                    jars.computeIfAbsent(file.substring(0, dash), jar -> new LinkedHashMap<>());
            String benchmark = null;
            List<Double> round = null;
            for (String line : Files.readAllLines(log)) {
                Matcher name = BENCHMARK.matcher(line);
                if (name.find()) {
                    benchmark = shortName(name.group(1));
                    round = new ArrayList<>();
                    benchmarks
                            .computeIfAbsent(benchmark, b -> new ArrayList<>())
                            .add(round);
                    continue;
                }
                Matcher iteration = ITERATION.matcher(line);
                if (iteration.find() && round != null) {
                    round.add(Double.parseDouble(iteration.group(1).replace(",", "")));
                    unit = iteration.group(2);
                }
            }
        }
        if (jars.size() != 2) {
            throw new IllegalArgumentException("expected the logs of two jars, got " + jars.keySet());
        }
        List<String> names = new ArrayList<>(jars.keySet());
        String a = names.get(0);
        String b = names.get(1);
        System.out.printf(
                "| benchmark (%s) | %s median | %s median | %s / %s | %s fastest | %s fastest"
                        + " | %s round medians | %s round medians | %s not slower? |%n",
                unit, a, b, b, a, a, b, a, b, b);
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (String benchmark : jars.get(a).keySet()) {
            List<List<Double>> roundsA = jars.get(a).get(benchmark);
            List<List<Double>> roundsB = jars.get(b).get(benchmark);
            if (roundsB == null) {
                throw new IllegalArgumentException(b + " has no result for " + benchmark);
            }
            double medianA = median(all(roundsA));
            double medianB = median(all(roundsB));
            List<Double> roundMediansA = roundMedians(roundsA);
            double spreadA = Collections.max(roundMediansA) - Collections.min(roundMediansA);
            System.out.printf(
                    Locale.ROOT,
                    "| `%s` | %.2f | %.2f | %.3fx | %.2f | %.2f | %s | %s | %s |%n",
                    benchmark,
                    medianA,
                    medianB,
                    medianB / medianA,
                    Collections.min(all(roundsA)),
                    Collections.min(all(roundsB)),
                    format(roundMediansA),
                    format(roundMedians(roundsB)),
                    medianB <= medianA + spreadA ? "yes" : "**no**");
        }
        for (String jar : names) {
            int iterations = 0;
            int rounds = 0;
            for (List<List<Double>> benchmarkRounds : jars.get(jar).values()) {
                rounds = Math.max(rounds, benchmarkRounds.size());
                iterations = Math.max(iterations, all(benchmarkRounds).size());
            }
            System.out.printf("%n%s: %d rounds, %d measured iterations per benchmark", jar, rounds, iterations);
        }
        System.out.println();
    }

    /** {@code Class.method} of a benchmark's full name. */
    private static String shortName(String benchmark) {
        int method = benchmark.lastIndexOf('.');
        return benchmark.substring(benchmark.lastIndexOf('.', method - 1) + 1);
    }

    private static List<Double> all(List<List<Double>> rounds) {
        List<Double> all = new ArrayList<>();
        rounds.forEach(all::addAll);
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no measured iteration in a log (did the run fail?)");
        }
        return all;
    }

    private static List<Double> roundMedians(List<List<Double>> rounds) {
        List<Double> medians = new ArrayList<>();
        for (List<Double> round : rounds) {
            medians.add(median(round));
        }
        return medians;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no measured iteration in a round (did the run fail?)");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static String format(List<Double> values) {
        StringBuilder text = new StringBuilder();
        for (double value : values) {
            text.append(text.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", value));
        }
        return text.toString();
    }
}
