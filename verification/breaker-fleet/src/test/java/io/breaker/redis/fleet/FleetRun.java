package io.breaker.redis.fleet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of a fleet sharing its breaker through a store: N instances start, warm-up traffic if asked, the
 * rounds without a fault, then one round per fault injected into the store; a round that leaves the fleet
 * broken ends the run. The report goes to {@code target/fleet-report.md} ({@code fleet-report-dynamodb.md}
 * through DynamoDB) and to standard output, before anything is asserted; what each period cost goes to
 * {@code target/fleet-costs-<store>.md}.
 *
 * @param results     the rounds, in order
 * @param warmUp      the warm-up's calls (empty without warm-up)
 * @param untrueTrips trip lines the instances logged whose rate is below their threshold
 */
record FleetRun(List<RoundResult> results, List<CallLog.Call> warmUp, List<String> untrueTrips) {

    /** How one period of the run is measured: with the Redis server's counters, or without. */
    @FunctionalInterface
    interface Costs {
        FleetCost measure(String label, FleetProcesses fleet, FleetCost.Period period) throws Exception;
    }

    static FleetRun run(FleetSettings settings, StoreAddress store, StoreFaults faults, Costs costing)
            throws Exception {
        Instant started = Instant.now();
        long start = System.nanoTime();
        Path target = Path.of("target");
        boolean dynamo = settings.store().equals("dynamodb");
        String server = dynamo ? "dynalite" : "Redis";
        List<RoundResult> results = new ArrayList<>();
        List<FleetCost> costs = new ArrayList<>();
        List<CallLog.Call> warmUp = new ArrayList<>();
        List<String> untrueTrips;
        try (Dependency dependency = new Dependency(settings.instances());
                FleetProcesses fleet = FleetProcesses.start(
                        settings, store, dependency::uri, target.resolve(FleetReport.logFolder(settings)));
                Callers callers = new Callers(fleet)) {
            RoundRunner runner = new RoundRunner(settings, fleet, callers, dependency, faults);
            if (!settings.warmUp().isZero()) {
                costs.add(costing.measure(
                        "warm-up",
                        fleet,
                        () -> warmUp.addAll(runner.warmUp(settings.warmUp()).all())));
            }
            for (int round = 1; round <= settings.rounds() && allSettled(results); round++) {
                String label = "round " + round;
                costs.add(costing.measure(label, fleet, () -> results.add(runner.run(label, null))));
            }
            for (Fault fault : settings.faults()) {
                if (allSettled(results)) {
                    String label = fault.description(server);
                    costs.add(costing.measure(label, fleet, () -> results.add(runner.run(label, fault))));
                }
            }
            untrueTrips = fleet.tripsTheirNumbersDoNotExplain();
        } finally {
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            String report = FleetReport.markdown(settings, results, costs, warmUp, started, took);
            Files.writeString(target.resolve(dynamo ? "fleet-report-dynamodb.md" : "fleet-report.md"), report);
            Files.writeString(
                    target.resolve("fleet-costs-" + settings.store() + ".md"),
                    FleetReport.costTable(settings, results, costs));
            System.out.println(report);
        }
        return new FleetRun(List.copyOf(results), List.copyOf(warmUp), untrueTrips);
    }

    /** The goals the run missed, each as a sentence: caller-visible errors in the warm-up, then each round's. */
    List<String> misses(FleetSettings settings) {
        List<String> misses = new ArrayList<>();
        List<CallLog.Call> warmUpErrors = CallLog.errors(warmUp);
        if (!warmUpErrors.isEmpty()) {
            misses.add("warm-up: " + warmUpErrors.size() + " caller-visible errors, first: "
                    + warmUpErrors.get(0).error());
        }
        results.forEach(result -> misses.addAll(result.misses(settings)));
        return misses;
    }

    /** A round that left the fleet broken ends the run: later rounds would measure that, not themselves. */
    private static boolean allSettled(List<RoundResult> results) {
        return results.stream().allMatch(RoundResult::settled);
    }
}
