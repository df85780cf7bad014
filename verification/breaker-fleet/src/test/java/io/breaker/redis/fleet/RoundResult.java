package io.breaker.redis.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * What one round measured. Times are in milliseconds; {@code -1} where a phase did not complete.
 *
 * @param label          "round 3", or the fault's description
 * @param fault          the fault injected in this round, or {@code null}
 * @param tripCalls      requests that reached the failing dependency from the switch until every instance had
 *                       answered "rejected"
 * @param tripPerInstance those requests, per instance (index order)
 * @param notStopped     instances that never answered "rejected" within the trip limit
 * @param lateReports    operations the instances' callers stopped waiting for during the trip (the sum of
 *                       their {@code breaker.store.timeouts} meters from the switch until the stop): each is a
 *                       failure report whose answer came after the store timeout, and lets one more call through
 * @param probes         requests that reached the dependency while the fleet was open
 * @param maxProbesInWait the most of those in any interval of one wait duration
 * @param probeSeconds   when each of those arrived, in seconds after every instance had answered "rejected"
 * @param aloneProbes    after a failover or a restart, requests to the dependency from then on that an instance
 *                       sent while its store was declared down (it acts alone and may probe on its own): not
 *                       among {@code probes}
 * @param openSeconds    how long the fleet was held open, from that moment until the dependency recovered
 * @param reconnectedSeconds after a failover or a restart, when every instance reached the store again (the new
 *                       master), in seconds after the stop; probes count from then (-1 for other rounds, or if some
 *                       never did)
 * @param recoveryMillis from the dependency's recovery until every instance had answered "live", or -1 when
 *                       that took longer than the recovery limit
 * @param settledMillis  the same without the recovery limit (up to the settle limit), or -1: the run stops there
 * @param statesAfter    each instance's breaker state (actuator) once recovered, or at the recovery limit
 * @param medianMillis   median latency of the round's calls
 * @param maxMillis      the longest call of the round
 * @param errors         calls answered with anything but live, failed or rejected, or not answered
 * @param firstError     what the first of those was, or {@code null}
 * @param warnings       WARN and ERROR lines the instances logged during the round, other than state transitions
 * @param normalMillis   fault rounds: the longest call that ended in the span before the fault (for a pause as
 *                       long as the pause and the second after it), else -1
 * @param failedNormalMillis fault rounds: the longest call answered "failed" within the store timeout during
 *                       the trips of the rounds before without a fault (its report's answer included), if
 *                       longer than {@code normalMillis}; else {@code normalMillis}
 * @param faultMaxMillis fault rounds: the longest call under way during the fault or the second after, else -1
 * @param slowCalls      fault rounds: calls under way then that took longer than the normal latency of their
 *                       kind (a failed call's, or any call's) plus the store timeout
 */
record RoundResult(
        String label,
        Fault fault,
        int tripCalls,
        List<Integer> tripPerInstance,
        List<Integer> notStopped,
        int lateReports,
        int probes,
        int maxProbesInWait,
        List<Double> probeSeconds,
        int aloneProbes,
        double openSeconds,
        double reconnectedSeconds,
        long recoveryMillis,
        long settledMillis,
        List<String> statesAfter,
        double medianMillis,
        double maxMillis,
        int errors,
        String firstError,
        long warnings,
        double normalMillis,
        double failedNormalMillis,
        double faultMaxMillis,
        int slowCalls) {

    boolean stopped() {
        return notStopped.isEmpty();
    }

    /** Whether the fleet ended CLOSED, even late: if not, later rounds would start from a broken fleet. */
    boolean settled() {
        return settledMillis >= 0;
    }

    boolean recovered() {
        return recoveryMillis >= 0 && statesAfter.stream().allMatch("CLOSED"::equals);
    }

    /** The strict goal: no more calls than the threshold plus one under way on each other instance. */
    boolean tripMet(FleetSettings settings) {
        return stopped() && tripCalls <= settings.tripGoal();
    }

    /**
     * What the protocol guarantees: the goal, plus one call for each failure report whose answer came after
     * the store timeout (its caller went on before it learned that the fleet had tripped).
     */
    int tripBound(FleetSettings settings) {
        return settings.tripGoal() + lateReports;
    }

    boolean tripWithinBound(FleetSettings settings) {
        return stopped() && tripCalls <= tripBound(settings);
    }

    /**
     * A probe's answer decides when the next wait ends, so consecutive probes are a wait plus the probe's own
     * time apart; this much more than a wait without any probe means the fleet stopped probing (for example
     * because later failures pushed the reopen time back).
     */
    private static final double PROBE_SLACK_SECONDS = 0.5;

    /** At most one probe in any wait window. */
    boolean probesMet() {
        return maxProbesInWait <= 1;
    }

    /** The longest time while open without a probe, in seconds. */
    double longestWithoutProbe() {
        double previous = 0;
        double longest = 0;
        for (double probe : probeSeconds) {
            longest = Math.max(longest, probe - previous);
            previous = probe;
        }
        return Math.max(longest, openSeconds - previous);
    }

    /** Exactly one probe per wait window: never two in one, never a window without. */
    boolean oneProbePerWait(FleetSettings settings) {
        return probesMet() && longestWithoutProbe() <= settings.openWait().toMillis() / 1000.0 + PROBE_SLACK_SECONDS;
    }

    /** Whether no call waited longer than the store timeout beyond the normal latency. */
    boolean latencyMet() {
        return slowCalls == 0;
    }

    /**
     * The fleet's guarantees this round breaks, each as a sentence; empty when it keeps them all. A trip over
     * the strict goal but within the guaranteed bound is not one (the report shows the goal's hit rate).
     */
    List<String> misses(FleetSettings settings) {
        List<String> misses = new ArrayList<>();
        if (errors > 0) {
            misses.add(errors + " caller-visible errors, first: " + firstError);
        }
        if ((fault == Fault.FAILOVER || fault == Fault.RESTART) && reconnectedSeconds < 0) {
            misses.add(
                    fault == Fault.FAILOVER
                            ? "not every instance reached the new master"
                            : "not every instance reached the restarted store");
        }
        if (!recovered()) {
            misses.add("not recovered: "
                    + (recoveryMillis >= 0
                            ? "states " + statesAfter
                            : settled()
                                    ? "every instance answered live only after " + settledMillis + " ms"
                                    : "not every instance answered live; the run stopped here"));
        }
        if (fault == null) {
            if (!tripWithinBound(settings)) {
                misses.add(
                        stopped()
                                ? tripCalls + " calls reached the failing dependency (guaranteed <= "
                                        + tripBound(settings) + ": goal " + settings.tripGoal() + " + " + lateReports
                                        + " late reports)"
                                : "instances " + notStopped + " never rejected");
            }
            if (!probesMet()) {
                misses.add(maxProbesInWait + " probes in one wait window (goal 1)");
            }
            if (!oneProbePerWait(settings) && probesMet()) {
                misses.add(String.format(
                        "no probe for %.1f s while open (goal: one per wait window)", longestWithoutProbe()));
            }
        } else if (fault == Fault.RESTART || fault == Fault.FAILOVER) {
            if (!probesMet()) {
                misses.add(maxProbesInWait + " probes in one wait window after the "
                        + (fault == Fault.RESTART ? "restart" : "failover, once every instance reached the new master")
                        + " (goal <= 1)");
            }
        } else if (!latencyMet()) {
            misses.add(String.format(
                    "%d calls took longer than the normal %.1f ms (%.1f ms for a failed call) plus %d ms, the"
                            + " longest %.0f ms",
                    slowCalls,
                    normalMillis,
                    failedNormalMillis,
                    settings.storeTimeout().toMillis(),
                    faultMaxMillis));
        }
        return misses.stream().map(miss -> label + ": " + miss).toList();
    }
}
