package io.breaker.redis.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * One round under the running fleet: warm-up, trip, open, recovery, with a fault injected into
 * the shared store at one point if asked. The fleet ends every round CLOSED (recovery is what closes it).
 */
final class RoundRunner {

    private static final Duration TRIP_LIMIT = Duration.ofSeconds(20);
    /**
     * How long a fleet that missed its recovery limit gets to recover anyway before the run stops: longer
     * than the default probe lease (60 s), which can hold a lost probe's permit that long.
     */
    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(90);

    private static final Duration FAULT = Duration.ofSeconds(3);
    /** Traffic after a fault, to catch calls it delayed, and before a restart or a failover. */
    private static final Duration AROUND_FAULT = Duration.ofSeconds(1);
    /**
     * Traffic before a pause, to know the normal latency: as long as the span whose calls are held to it
     * (the pause and the second after), so the longest call of each is the longest of as many calls on
     * the same busy machine. A shorter span sees fewer of its scheduling stalls, and a pause would be
     * blamed for the rest.
     */
    private static final Duration BEFORE_PAUSE = FAULT.plus(AROUND_FAULT);
    /**
     * Two probes a full wait apart must not land in one window because the dependency timestamped
     * them a few milliseconds late or early on a busy machine.
     */
    private static final Duration PROBE_JITTER = Duration.ofMillis(100);
    /**
     * How long after a failover every instance gets to reach the new master: Lettuce reconnects with an
     * exponential backoff (up to 30 s by default), so one may still be waiting for its next attempt.
     */
    private static final Duration RECONNECT_LIMIT = Duration.ofSeconds(40);

    private final FleetSettings settings;
    private final FleetProcesses fleet;
    private final Callers callers;
    private final Dependency dependency;
    private final StoreFaults store;
    /**
     * The longest call answered "failed" within the store timeout during the trips of the rounds without
     * a fault so far: a failed call's normal latency, its report's answer included, which a pause replaces
     * with at most the store timeout. Failed calls take a longer path than healthy ones (the failure, its
     * report, a trip's log line), so the healthy traffic before a pause does not say what they normally
     * take. A failed call that took longer may have waited for the timeout already (a late report), and
     * would let a pause add a second one unseen.
     */
    private long failedNormalNanos;

    RoundRunner(
            FleetSettings settings, FleetProcesses fleet, Callers callers, Dependency dependency, StoreFaults store) {
        this.settings = settings;
        this.fleet = fleet;
        this.callers = callers;
        this.dependency = dependency;
        this.store = store;
    }

    /**
     * Healthy traffic on every instance for {@code duration}, before the rounds: every instance's code
     * paths are compiled, and the breaker's steady cost (its refreshes) can be measured. Returns the calls.
     */
    CallLog warmUp(Duration duration) throws InterruptedException {
        CallLog log = new CallLog();
        dependency.healthy();
        Callers.Traffic traffic = callers.start(log);
        sleep(duration);
        traffic.stop();
        dependency.clear();
        return log;
    }

    /** The traffic a fault comes after: the span of the normal latency (a pause's is held to it). */
    private static Duration before(Fault fault) {
        return fault == Fault.RESTART || fault == Fault.FAILOVER ? AROUND_FAULT : BEFORE_PAUSE;
    }

    /** Runs one round; {@code fault} may be {@code null}. */
    RoundResult run(String label, Fault fault) throws Exception {
        dependency.clear();
        Round round = new Round(fault, fleet.warnings());
        warmUp(round);
        trip(round);
        holdOpen(round);
        recover(round);
        return result(label, round);
    }

    /** What a round has seen so far; times are {@code System.nanoTime}, -1 until they happen. */
    private static final class Round {

        final Fault fault;
        final long warningsBefore;
        final CallLog log = new CallLog();
        Callers.Traffic traffic;
        CallLog.Watch rejected;
        long faultStart = -1;
        long faultEnd = -1;
        /** After a failover: when every instance was connected to the new master again, or -1 if some never was. */
        long reconnected = -1;

        long switchedToFailing;
        /** The instances' store timeouts when the dependency started failing, then during the trip. */
        long timeoutsBefore;

        int lateReports;
        OptionalLong everyRejected;
        /** When every instance had answered "rejected" (or the trip limit, if some never did). */
        long stopped;

        long healed;
        OptionalLong everyLive;
        /** When every instance had answered "live", however long it took (up to the settle limit). */
        OptionalLong settled;

        final List<String> states = new ArrayList<>();

        Round(Fault fault, long warningsBefore) {
            this.fault = fault;
            this.warningsBefore = warningsBefore;
        }
    }

    private void warmUp(Round round) throws Exception {
        dependency.healthy();
        callers.callEach(FleetSettings.WARM_UP_CALLS, round.log);
        if (round.fault == Fault.PAUSE_HEALTHY) {
            Callers.Traffic healthy = callers.start(round.log);
            sleep(BEFORE_PAUSE);
            round.faultStart = pause();
            round.faultEnd = resumeAt(round.faultStart + FAULT.toNanos());
            sleep(AROUND_FAULT);
            healthy.stop();
        }
    }

    /** Switches the dependency to failing and waits until every instance rejects; traffic goes on after. */
    private void trip(Round round) throws Exception {
        if (round.fault == Fault.PAUSE_TRIP) {
            round.traffic = callers.start(round.log); // healthy traffic: the normal latency
            sleep(BEFORE_PAUSE);
            round.faultStart = pause();
        }
        round.rejected = round.log.watch(fleet.size(), CallLog.REJECTED);
        round.timeoutsBefore = fleet.storeTimeouts();
        round.switchedToFailing = dependency.failing();
        if (round.traffic == null) {
            round.traffic = callers.start(round.log);
        }
        if (round.fault == Fault.PAUSE_TRIP) {
            awaitEvery(round.rejected, round.faultStart + FAULT.toNanos());
            round.faultEnd = resumeAt(round.faultStart + FAULT.toNanos());
        }
        round.everyRejected = awaitEvery(round.rejected, round.switchedToFailing + TRIP_LIMIT.toNanos());
        round.stopped = round.everyRejected.orElse(System.nanoTime());
        round.lateReports = (int) (fleet.storeTimeouts() - round.timeoutsBefore);
    }

    /** Keeps calling the still failing dependency through the fleet for a few wait windows. */
    private void holdOpen(Round round) throws Exception {
        long openEnd = round.stopped + openDuration();
        if (round.fault == Fault.PAUSE_OPEN || round.fault == Fault.RESTART || round.fault == Fault.FAILOVER) {
            sleepUntil(round.stopped + before(round.fault).toNanos());
            if (round.fault == Fault.PAUSE_OPEN) {
                round.faultStart = pause();
                round.faultEnd = resumeAt(round.faultStart + FAULT.toNanos());
                openEnd = Math.max(openEnd, round.faultEnd + AROUND_FAULT.toNanos());
            } else {
                round.faultStart = System.nanoTime();
                if (round.fault == Fault.RESTART) {
                    store.restartEmpty();
                } else {
                    store.failover();
                }
                round.faultEnd = System.nanoTime();
                round.reconnected = awaitReconnected(round.faultEnd + RECONNECT_LIMIT.toNanos());
                openEnd = Math.max(round.faultEnd, round.reconnected) + openDuration();
            }
        }
        sleepUntil(openEnd);
    }

    /** Heals the dependency and waits until every instance answers "live": the fleet is CLOSED for the next round. */
    private void recover(Round round) throws Exception {
        CallLog.Watch live = round.log.watch(fleet.size(), CallLog.LIVE);
        round.healed = dependency.healthy();
        round.everyLive = awaitEvery(live, round.healed + recoveryLimit().toNanos());
        for (int i = 0; i < fleet.size(); i++) {
            round.states.add(fleet.state(i));
        }
        // A late recovery is still a miss, but the next round must start from a CLOSED fleet, or it measures nothing.
        round.settled =
                round.everyLive.isPresent() ? round.everyLive : awaitEvery(live, round.healed + SETTLE_LIMIT.toNanos());
        round.traffic.stop();
    }

    private RoundResult result(String label, Round round) {
        List<CallLog.Call> calls = round.log.all();
        List<CallLog.Call> errors = CallLog.errors(calls);
        // After a failover or a restart, from when every instance reached the store again: until then an
        // instance that took the store as down acted alone (failure-mode protect-locally) and could send its
        // own probe.
        boolean storeFault = round.fault == Fault.FAILOVER || round.fault == Fault.RESTART;
        long probesFrom = storeFault ? (round.reconnected >= 0 ? round.reconnected : round.healed) : round.stopped + 1;
        List<Dependency.Arrival> open = dependency.arrivals(probesFrom, round.healed - 1);
        List<Dependency.Arrival> probes = fleetProbes(open, storeFault);
        List<Dependency.Arrival> trip = dependency.arrivals(round.switchedToFailing, round.stopped).stream()
                .filter(Dependency.Arrival::failed)
                .toList();
        List<Integer> tripPerInstance = new ArrayList<>();
        for (int i = 0; i < fleet.size(); i++) {
            int instance = i;
            tripPerInstance.add((int) trip.stream()
                    .filter(arrival -> arrival.instance() == instance)
                    .count());
        }
        if (round.fault == null) {
            failedNormalNanos = Math.max(
                    failedNormalNanos,
                    failedNormal(
                            round.log.endedBetween(round.switchedToFailing, round.stopped), settings.storeTimeout()));
        }
        double normal = -1;
        double failedNormal = -1;
        double faultMax = -1;
        int slow = 0;
        if (round.fault != null) {
            long before = round.faultStart - before(round.fault).toNanos();
            // The longest call of the span before, as long as the one held to it: what the machine's
            // scheduling alone makes a call take (five JVMs on two cores stall a call for tens of
            // milliseconds now and then); a pause must add no more than the store timeout to it.
            long normalNanos = CallLog.max(round.log.endedBetween(before, round.faultStart));
            long after = round.faultEnd + AROUND_FAULT.toNanos();
            List<CallLog.Call> duringFault = round.log.overlapping(round.faultStart, after);
            normal = millis(normalNanos);
            failedNormal = millis(Math.max(normalNanos, failedNormalNanos));
            faultMax = millis(CallLog.max(duringFault));
            slow = slowCalls(duringFault, normalNanos, failedNormalNanos, settings.storeTimeout());
        }
        return new RoundResult(
                label,
                round.fault,
                trip.size(),
                tripPerInstance,
                round.everyRejected.isPresent() ? List.of() : round.rejected.missing(),
                round.lateReports,
                probes.size(),
                maxInOneWait(probes),
                probes.stream()
                        .map(probe -> seconds(probe.nanos() - round.stopped))
                        .toList(),
                open.size() - probes.size(),
                seconds(round.healed - round.stopped),
                storeFault && round.reconnected >= 0 ? seconds(round.reconnected - round.stopped) : -1,
                sinceHealed(round, round.everyLive),
                sinceHealed(round, round.settled),
                round.states,
                millis(CallLog.percentile(calls, 50)),
                millis(CallLog.max(calls)),
                errors.size(),
                errors.isEmpty() ? null : errors.get(0).error(),
                fleet.warnings() - round.warningsBefore,
                normal,
                failedNormal,
                faultMax,
                slow);
    }

    /**
     * A failed call's normal latency from the calls of a trip with the store up: the longest answered
     * "failed" in less than the store timeout (0 without one).
     */
    static long failedNormal(List<CallLog.Call> trip, Duration storeTimeout) {
        return CallLog.max(trip.stream()
                .filter(call -> call.status() == CallLog.FAILED && call.latencyNanos() < storeTimeout.toNanos())
                .toList());
    }

    /**
     * The calls slower than the normal latency of their kind plus the store timeout: {@code failedNormal}
     * for a call answered "failed" (at least {@code normal}), {@code normal} for any other.
     */
    static int slowCalls(List<CallLog.Call> calls, long normal, long failedNormal, Duration storeTimeout) {
        long bound = normal + storeTimeout.toNanos();
        long failedBound = Math.max(normal, failedNormal) + storeTimeout.toNanos();
        return (int) calls.stream()
                .filter(call -> call.latencyNanos() > (call.status() == CallLog.FAILED ? failedBound : bound))
                .count();
    }

    /**
     * The fleet's probes among the requests that reached the dependency while it was open. After a failover
     * or a restart ({@code storeFault}) an instance may take its store as down only after every instance
     * showed it reachable (a request lost in the fault times out later): what it sends then, marked as sent
     * alone, is its own probe, not the fleet's. In other rounds every request counts.
     */
    static List<Dependency.Arrival> fleetProbes(List<Dependency.Arrival> open, boolean storeFault) {
        return storeFault ? open.stream().filter(arrival -> !arrival.alone()).toList() : open;
    }

    private static long sinceHealed(Round round, OptionalLong moment) {
        return moment.isPresent() ? Math.round(millis(moment.getAsLong() - round.healed)) : -1;
    }

    /** Two to three wait windows: enough to see whether the fleet probes once per window. */
    private long openDuration() {
        return settings.openWait().toNanos() * 5 / 2;
    }

    /** Long enough for the wait to end, a probe to close the breaker, and every cache to notice. */
    private Duration recoveryLimit() {
        return settings.openWait().multipliedBy(3).plusSeconds(10);
    }

    /** The most probes in any interval of one wait duration (less the measurement jitter). */
    private int maxInOneWait(List<Dependency.Arrival> probes) {
        return mostInAnyInterval(probes, settings.openWait().minus(PROBE_JITTER));
    }

    /** The most arrivals (oldest first) in any half-open interval {@code [t, t + length)}. */
    static int mostInAnyInterval(List<Dependency.Arrival> probes, Duration length) {
        long window = length.toNanos();
        int most = 0;
        int first = 0;
        for (int last = 0; last < probes.size(); last++) {
            while (probes.get(last).nanos() - probes.get(first).nanos() >= window) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }

    private static OptionalLong awaitEvery(CallLog.Watch watch, long deadline) throws InterruptedException {
        while (true) {
            OptionalLong every = watch.everyAnswered();
            if (every.isPresent() || System.nanoTime() >= deadline) {
                return every;
            }
            Thread.sleep(5);
        }
    }

    /**
     * Waits until every instance's actuator shows the store reachable; returns when, or -1 at the deadline.
     * The master died seconds before, and traffic flows: an instance has seen its store fail by then, so
     * "reachable" is its answer from the new master, not a stale one.
     */
    private long awaitReconnected(long deadline) throws InterruptedException {
        boolean[] reconnected = new boolean[fleet.size()];
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (int i = 0; i < fleet.size(); i++) {
                reconnected[i] = reconnected[i] || fleet.storeReachable(i);
                all &= reconnected[i];
            }
            if (all) {
                return System.nanoTime();
            }
            Thread.sleep(20);
        }
        return -1;
    }

    private long pause() throws Exception {
        long start = System.nanoTime();
        store.pause();
        return start;
    }

    private long resumeAt(long at) throws Exception {
        sleepUntil(at);
        store.resume();
        return System.nanoTime();
    }

    private static void sleep(Duration duration) throws InterruptedException {
        sleepUntil(System.nanoTime() + duration.toNanos());
    }

    /** The fleet runs in real time: the phases are real durations. */
    private static void sleepUntil(long nanos) throws InterruptedException {
        long left = nanos - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }

    /** Rounded to a tenth: the report's precision. */
    private static double seconds(long nanos) {
        return Math.round(nanos / 1e8) / 10.0;
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }
}
