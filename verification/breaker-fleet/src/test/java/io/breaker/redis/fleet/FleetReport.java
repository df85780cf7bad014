package io.breaker.redis.fleet;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The markdown report of one fleet run: a table for the rounds, one for the fault rounds. */
final class FleetReport {

    private static final String MISS = " ✗";
    private static final int PROBES_SHOWN = 12;
    private static final int SETTLE_SECONDS = 90;

    private FleetReport() {}

    static String markdown(FleetSettings settings, List<RoundResult> results, Instant started, Duration took) {
        return markdown(settings, results, List.of(), List.of(), started, took);
    }

    /** The same, with what each period cost and the warm-up's calls (both empty when not measured). */
    static String markdown(
            FleetSettings settings,
            List<RoundResult> results,
            List<FleetCost> costs,
            List<CallLog.Call> warmUp,
            Instant started,
            Duration took) {
        StringBuilder out = new StringBuilder();
        out.append("## Fleet of ")
                .append(settings.instances())
                .append(" processes, store=")
                .append(settings.store())
                .append("\n\n")
                .append("Started ")
                .append(started)
                .append(", took ")
                .append(took.toSeconds())
                .append(" s (")
                .append(settings.describe())
                .append(").\n")
                .append("Run with: `")
                .append(command(settings))
                .append("`\n\n");
        List<RoundResult> rounds =
                results.stream().filter(result -> result.fault() == null).toList();
        if (!rounds.isEmpty()) {
            header(
                    out,
                    "round",
                    "calls that reached the failing dependency before every instance stopped (goal ≤ "
                            + settings.tripGoal() + "; guaranteed ≤ goal + late failure reports)",
                    "max probes in one wait window (goal: exactly 1)",
                    "probes while open (s after the stop)",
                    "recovery",
                    "median / max latency",
                    "caller-visible errors (goal 0)",
                    "store warnings in logs");
            for (RoundResult round : rounds) {
                row(
                        out,
                        round.label(),
                        trip(round) + bound(round, settings),
                        perWait(round, settings),
                        probes(round),
                        recovery(round),
                        String.format("%.1f / %.0f ms", round.medianMillis(), round.maxMillis()),
                        round.errors() + mark(round.errors() == 0),
                        Long.toString(round.warnings()));
            }
            out.append('\n');
            long met = rounds.stream().filter(round -> round.tripMet(settings)).count();
            out.append("The goal of ≤ ")
                    .append(settings.tripGoal())
                    .append(" calls was met in ")
                    .append(met)
                    .append(" of ")
                    .append(rounds.size())
                    .append(" rounds; every round is asserted against its guaranteed bound.\n\n");
        }
        List<RoundResult> faults =
                results.stream().filter(result -> result.fault() != null).toList();
        if (!faults.isEmpty()) {
            header(
                    out,
                    "fault",
                    "calls that reached the failing dependency before every instance stopped",
                    "max probes in one wait window (goal ≤ 1 after a restart)",
                    "probes while open (s after the stop)",
                    "recovery (goal: every instance CLOSED)",
                    "normal latency (max, the span before / of a failed call in the rounds without a fault)",
                    "max latency during the fault",
                    "calls slower than normal + " + settings.storeTimeout().toMillis() + " ms (goal for a pause: 0)",
                    "caller-visible errors (goal 0)",
                    "store warnings in logs");
            for (RoundResult round : faults) {
                boolean restart = round.fault() == Fault.RESTART;
                String probesMark = restart ? mark(round.probesMet()) : "";
                String latencyMark = restart ? "" : mark(round.latencyMet());
                row(
                        out,
                        round.label(),
                        trip(round),
                        round.maxProbesInWait() + probesMark,
                        probes(round),
                        recovery(round),
                        String.format("%.1f / %.1f ms", round.normalMillis(), round.failedNormalMillis()),
                        String.format("%.0f ms", round.faultMaxMillis()),
                        round.slowCalls() + latencyMark,
                        round.errors() + mark(round.errors() == 0),
                        Long.toString(round.warnings()));
            }
            out.append('\n');
        }
        if (!costs.isEmpty()) {
            out.append(costTable(settings, results, costs)).append('\n');
        }
        if (!warmUp.isEmpty()) {
            out.append(String.format(
                    "- Warm-up: %d s of healthy traffic before the first round, %d calls, %d caller-visible errors.%n",
                    settings.warmUp().toSeconds(),
                    warmUp.size(),
                    CallLog.errors(warmUp).size()));
        }
        results.stream()
                .filter(result -> (result.fault() == Fault.FAILOVER || result.fault() == Fault.RESTART)
                        && result.reconnectedSeconds() >= 0)
                .forEach(result -> out.append("- ")
                        .append(result.label())
                        .append(
                                result.fault() == Fault.FAILOVER
                                        ? ": every instance reached the new master "
                                        : ": every instance reached the restarted store ")
                        .append(result.reconnectedSeconds())
                        .append(" s after the stop; its probes count from then (until it reconnects, an instance")
                        .append(" that took the store as down protects itself alone and may send its own probe)")
                        .append(
                                result.aloneProbes() > 0
                                        ? "; " + result.aloneProbes()
                                                + " requests sent later by an instance acting alone (its store"
                                                + " declared down) are not counted as the fleet's probes.\n"
                                        : ".\n"));
        results.stream()
                .filter(result -> !result.settled())
                .forEach(result -> out.append("- The run stopped after ")
                        .append(result.label())
                        .append(": the fleet had not recovered ")
                        .append(SETTLE_SECONDS)
                        .append(" s after the dependency did.\n"));
        results.stream()
                .filter(result -> result.firstError() != null)
                .forEach(result -> out.append("- ")
                        .append(result.label())
                        .append(": first caller-visible error: ")
                        .append(result.firstError())
                        .append('\n'));
        out.append("""
                - ✗ marks a missed goal (in the trip column of the rounds: a broken guaranteed bound). The stop: the moment every instance had answered "rejected". Probes: requests \
                that reached the dependency from the stop until it recovered; a wait window is one wait duration less \
                100 ms of measurement jitter; "exactly 1" also needs a probe at least every wait + 0.5 s while open.
                - Faults: a pause lasts 3 s; during the trip it starts as the dependency starts failing; while \
                OPEN, a pause starts 4 s after the stop, a restart 1 s after it. Normal latency: the longest of the \
                calls that ended in the 4 s before a pause (the second before a restart); for a call answered \
                "failed", the longest failed call under the store timeout in the trips of the rounds without a \
                fault, if longer. Max latency and slow calls (slower than their normal plus the store timeout): \
                among the calls under way during the fault or the second after it.
                - Store warnings: WARN/ERROR lines the instances logged during the round, other than state \
                transitions (instance logs: verification/breaker-fleet/target/fleet-logs/). Late failure reports: \
                the instances' `breaker.store.timeouts` during the trip; each lets one more call through.
                - ✓ marks a round over the goal but within its guaranteed bound.
                """.replace("target/fleet-logs/", "target/" + logFolder(settings) + "/"));
        return out.toString();
    }

    /**
     * One row per period of the run (the warm-up, each round): the round's calls that reached the failing
     * dependency and its probes per wait window, then what the period cost per instance: Redis commands
     * per second and Redis's time per script (a fleet sharing DynamoDB shows none), resident memory and heap
     * in use at its end. The goals are marked for a shared store only (in memory each instance trips alone,
     * by design).
     */
    static String costTable(FleetSettings settings, List<RoundResult> results, List<FleetCost> costs) {
        StringBuilder out = new StringBuilder();
        boolean shared = settings.shared();
        String through = settings.store().equals("dynamodb") ? "DynamoDB" : "Redis";
        header(
                out,
                "store",
                "period",
                "calls that reached the failing dependency (goal ≤ " + settings.tripGoal() + " through " + through
                        + ")",
                "max probes in one wait window (goal: exactly 1 through " + through + ")",
                "Redis commands per instance per second: all (scripts)",
                "Redis wall time per script (commandstats)",
                "RSS per instance: median (max)",
                "heap used per instance: median (max)");
        for (FleetCost cost : costs) {
            RoundResult round = results.stream()
                    .filter(result -> result.label().equals(cost.label()))
                    .findFirst()
                    .orElse(null);
            boolean goals = shared && round != null && round.fault() == null;
            row(
                    out,
                    settings.store() + ", N = " + settings.instances(),
                    cost.label() + String.format(" (%.0f s)", cost.seconds()),
                    round == null
                            ? "–"
                            : round.tripCalls()
                                    + (round.lateReports() > 0 ? " (" + round.lateReports() + " late)" : "")
                                    + (goals ? mark(round.tripMet(settings)) : ""),
                    round == null
                            ? "–"
                            : round.maxProbesInWait() + (goals ? mark(round.oneProbePerWait(settings)) : ""),
                    cost.commands() == null
                            ? "–"
                            : String.format(
                                    "%.2f (%.2f)", cost.commandsPerInstanceSecond(), cost.scriptsPerInstanceSecond()),
                    cost.commands() == null || cost.commands().scriptCalls() == 0
                            ? "–"
                            : String.format("%.0f µs", cost.microsPerScript()),
                    mebibytes(FleetCost.median(cost.residentKib()) * 1024, FleetCost.max(cost.residentKib()) * 1024),
                    mebibytes(FleetCost.median(cost.heapBytes()), FleetCost.max(cost.heapBytes())));
        }
        return out.toString();
    }

    /** Where {@link FleetRun} has the instances write their logs, under {@code target}. */
    static String logFolder(FleetSettings settings) {
        return settings.store().equals("dynamodb") ? "dynamo-fleet-logs" : "fleet-logs";
    }

    private static String mebibytes(long median, long max) {
        return median < 0 ? "–" : String.format("%.0f (%.0f) MiB", median / 1048576.0, max / 1048576.0);
    }

    private static String command(FleetSettings settings) {
        List<String> faults = settings.faults().stream().map(Fault::label).toList();
        boolean dynamo = settings.store().equals("dynamodb");
        return "./mvnw -B -pl verification/breaker-fleet -am verify -Dtest="
                + (dynamo ? "DynamoFleetOfProcessesTest" : "FleetOfProcessesTest")
                + " -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dfleet.instances=" + settings.instances() + " -Dfleet.rounds=" + settings.rounds()
                + (dynamo ? "" : " -Dfleet.store=" + settings.store())
                + " -Dfleet.faults=" + (faults.isEmpty() ? "none" : String.join(",", faults))
                + " -Dfleet.wait=" + settings.openWait().toMillis() + "ms"
                + " -Dfleet.store-timeout=" + settings.storeTimeout().toMillis() + "ms"
                + " -Dfleet.assert=" + settings.asserting()
                + (settings.warmUp().isZero()
                        ? ""
                        : " -Dfleet.warm-up=" + settings.warmUp().toMillis() + "ms")
                + (String.join(" ", settings.jvmArgs()).equals(FleetSettings.JVM_ARGS)
                        ? ""
                        : " '-Dfleet.jvm-args=" + String.join(" ", settings.jvmArgs()) + "'");
    }

    private static void header(StringBuilder out, String... cells) {
        row(out, cells);
        out.append("|---".repeat(cells.length)).append("|\n");
    }

    private static void row(StringBuilder out, String... cells) {
        out.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static String perWait(RoundResult round, FleetSettings settings) {
        String gap = round.oneProbePerWait(settings) || !round.probesMet()
                ? ""
                : String.format(" (no probe for %.1f s)", round.longestWithoutProbe());
        return round.maxProbesInWait() + gap + mark(round.oneProbePerWait(settings));
    }

    private static String trip(RoundResult round) {
        String perInstance =
                round.tripPerInstance().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining("+"));
        return round.stopped()
                ? round.tripCalls() + " (" + perInstance + ")"
                : round.tripCalls() + " (" + perInstance + "; instances " + round.notStopped() + " never rejected)";
    }

    private static String probes(RoundResult round) {
        if (round.probes() == 0) {
            return "0";
        }
        List<String> seconds = round.probeSeconds().stream()
                .limit(PROBES_SHOWN)
                .map(String::valueOf)
                .toList();
        String more = round.probes() > PROBES_SHOWN ? ", …" : "";
        return round.probes() + " (" + String.join(", ", seconds) + more + ")";
    }

    private static String recovery(RoundResult round) {
        String time = round.recoveryMillis() >= 0
                ? round.recoveryMillis() + " ms"
                : round.settled()
                        ? "late: every instance live after " + round.settledMillis() + " ms"
                        : "never: not every instance live after " + SETTLE_SECONDS + " s";
        boolean allClosed = round.statesAfter().stream().allMatch("CLOSED"::equals);
        return time + (allClosed ? "" : " " + round.statesAfter()) + mark(round.recovered());
    }

    /** Nothing within the goal; over it, the guaranteed bound and whether the round kept it. */
    private static String bound(RoundResult round, FleetSettings settings) {
        String late = ", " + round.lateReports() + " late";
        if (round.tripMet(settings) || !round.stopped()) {
            return late + mark(round.stopped());
        }
        return late + ", bound " + round.tripBound(settings) + (round.tripWithinBound(settings) ? " ✓" : MISS);
    }

    private static String mark(boolean met) {
        return met ? "" : MISS;
    }
}
