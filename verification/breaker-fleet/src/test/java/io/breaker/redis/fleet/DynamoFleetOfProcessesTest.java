package io.breaker.redis.fleet;

import io.breaker.dynamodb.Dynalite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same promise through DynamoDB: N separate JVM processes share one breaker through one table of a
 * real DynamoDB API server (dynalite, which the {@link Dynalite} fixture installs with npm), and the fleet
 * must behave as one breaker would. The rounds are {@link FleetOfProcessesTest}'s, measured and asserted
 * the same way; then dynalite is frozen and killed.
 *
 * <p>The default run: 4 instances, 10 s of warm-up traffic, 3 rounds, then dynalite frozen (SIGSTOP) for
 * 3 s under healthy traffic and during a trip, with their latency check (no call under way during the
 * pause or the second after slower than the normal latency of its kind plus the store timeout: a failed
 * call's from the rounds without a fault, any other's from the 4 s before), then killed and started again
 * empty while the fleet is OPEN (see {@link FleetSettings#throughDynamoFromSystemProperties()} for the properties). The report
 * goes to
 * {@code target/fleet-report-dynamodb.md} and to standard output, before the goals are asserted.
 */
class DynamoFleetOfProcessesTest {

    private static final String TABLE = "fleet-breakers";

    @RegisterExtension
    static final Dynalite dynalite = new Dynalite();

    @Test
    void theFleetStopsTogetherProbesOncePerWaitAndSurvivesDynaliteFaults() throws Exception {
        FleetSettings settings = FleetSettings.throughDynamoFromSystemProperties();
        dynalite.createTable(TABLE);
        FleetRun run = FleetRun.run(
                settings,
                StoreAddress.dynamo(dynalite.port(), TABLE),
                StoreFaults.of(dynalite, TABLE),
                FleetCost::measure);

        if (settings.asserting()) {
            List<String> misses = new ArrayList<>(run.misses(settings));
            for (RoundResult round : run.results()) {
                if (round.fault() != null) {
                    misses.addAll(faultRoundMisses(round, settings));
                }
            }
            assertThat(misses)
                    .as("fleet goals missed (report in target/fleet-report-dynamodb.md)")
                    .isEmpty();
        }
        // Whatever the goals: every trip an instance logged is explained by the numbers it logged.
        assertThat(run.untrueTrips())
                .as("trip lines whose rate is below their threshold")
                .isEmpty();
    }

    /**
     * What a fault round must keep beyond {@link RoundResult#misses}, which checks its errors, its recovery,
     * its latency under a pause and its probes after a restart: every instance stops calling (a table that
     * does not answer must not stop the breakers, each keeps protecting on its own), at most one probe in
     * any wait window once the table answers, and where the table answered during the trip (all but a pause
     * during it) the rounds' guaranteed bound.
     */
    private static List<String> faultRoundMisses(RoundResult round, FleetSettings settings) {
        List<String> misses = new ArrayList<>();
        if (!round.stopped()) {
            misses.add("instances " + round.notStopped() + " never rejected");
        } else if (round.fault() != Fault.PAUSE_TRIP && !round.tripWithinBound(settings)) {
            misses.add(round.tripCalls() + " calls reached the failing dependency (guaranteed <= "
                    + round.tripBound(settings) + ": goal " + settings.tripGoal() + " + " + round.lateReports()
                    + " late reports)");
        }
        if (round.fault() != Fault.RESTART && !round.probesMet()) {
            misses.add(round.maxProbesInWait() + " probes in one wait window (goal <= 1)");
        }
        return misses.stream().map(miss -> round.label() + ": " + miss).toList();
    }
}
