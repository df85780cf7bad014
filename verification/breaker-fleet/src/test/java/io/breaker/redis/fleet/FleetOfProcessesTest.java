package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet's promise, end to end: N separate JVM processes of a consumer application share one
 * breaker through one real redis-server, and the fleet must behave as one breaker would. Per round
 * it measures the calls that reach a failing dependency before every instance stops, the probes per
 * wait window and the recovery; then it injects faults into Redis under the running fleet.
 *
 * <p>The default is the short run (3 instances, 3 rounds, Redis restarted empty while OPEN); see
 * {@link FleetSettings} for the properties of the full run. The report goes to
 * {@code target/fleet-report.md} and to standard output, before the goals are asserted; what each
 * round cost (Redis commands per instance and second, each instance's memory) also goes to
 * {@code target/fleet-costs-<store>.md}, a table that {@code run-scale.sh} puts together for both stores.
 */
class FleetOfProcessesTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Test
    void theFleetStopsTogetherProbesOncePerWaitAndSurvivesRedisFaults() throws Exception {
        FleetSettings settings = FleetSettings.fromSystemProperties();
        Instant started = Instant.now();
        long start = System.nanoTime();
        Path target = Path.of("target");
        List<RoundResult> results = new ArrayList<>();
        List<FleetCost> costs = new ArrayList<>();
        List<CallLog.Call> warmUp = new ArrayList<>();
        List<String> untrueTrips;
        try (Dependency dependency = new Dependency(settings.instances());
                FleetProcesses fleet =
                        FleetProcesses.start(settings, redis.port(), dependency::uri, target.resolve("fleet-logs"));
                Callers callers = new Callers(fleet)) {
            RoundRunner runner = new RoundRunner(settings, fleet, callers, dependency, RedisFaults.of(redis));
            if (!settings.warmUp().isZero()) {
                costs.add(FleetCost.measure(
                        "warm-up",
                        fleet,
                        redis,
                        () -> warmUp.addAll(runner.warmUp(settings.warmUp()).all())));
            }
            for (int round = 1; round <= settings.rounds() && allSettled(results); round++) {
                String label = "round " + round;
                costs.add(FleetCost.measure(label, fleet, redis, () -> results.add(runner.run(label, null))));
            }
            for (Fault fault : settings.faults()) {
                if (allSettled(results)) {
                    costs.add(FleetCost.measure(
                            fault.description(),
                            fleet,
                            redis,
                            () -> results.add(runner.run(fault.description(), fault))));
                }
            }
            untrueTrips = fleet.tripsTheirNumbersDoNotExplain();
        } finally {
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            String report = FleetReport.markdown(settings, results, costs, warmUp, started, took);
            Files.writeString(target.resolve("fleet-report.md"), report);
            Files.writeString(
                    target.resolve("fleet-costs-" + settings.store() + ".md"),
                    FleetReport.costTable(settings, results, costs));
            System.out.println(report);
        }

        if (settings.asserting()) {
            List<String> misses = new ArrayList<>();
            List<CallLog.Call> warmUpErrors = CallLog.errors(warmUp);
            if (!warmUpErrors.isEmpty()) {
                misses.add("warm-up: " + warmUpErrors.size() + " caller-visible errors, first: "
                        + warmUpErrors.get(0).error());
            }
            results.forEach(result -> misses.addAll(result.misses(settings)));
            assertThat(misses)
                    .as("fleet goals missed (report in target/fleet-report.md)")
                    .isEmpty();
        }
        // Whatever the goals: every trip an instance logged is explained by the numbers it logged.
        assertThat(untrueTrips)
                .as("trip lines whose rate is below their threshold")
                .isEmpty();
    }

    /** A round that left the fleet broken ends the run: later rounds would measure that, not themselves. */
    private static boolean allSettled(List<RoundResult> results) {
        return results.stream().allMatch(RoundResult::settled);
    }
}
