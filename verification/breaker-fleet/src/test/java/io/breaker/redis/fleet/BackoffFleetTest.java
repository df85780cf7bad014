package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The backoff of a shared breaker, end to end: four separate JVM processes of {@link FleetInstance}
 * share one breaker through one real redis-server with {@code wait-multiplier=2} and a 500 ms wait
 * capped at 8 s, under continuous traffic from every instance. The dependency stays down for five
 * probes: the fleet probes it once per window, at 0.5, 1, 2, 4 and 8 s intervals (each instance
 * learns the grown wait from the fleet, so none probes on its own shorter wait), and the sixth
 * probe, 8 s after the fifth (the cap), finds it healthy and closes the fleet.
 */
class BackoffFleetTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final int INSTANCES = 4;
    private static final Duration WAIT = Duration.ofMillis(500);
    private static final Duration MAX_WAIT = Duration.ofSeconds(8);
    private static final int FAILED_PROBES = 5;
    /** The interval before each probe: after the trip, then after each failed probe. */
    private static final long[] EXPECTED_MILLIS = {500, 1_000, 2_000, 4_000, 8_000, 8_000};
    /** Clocks of two processes and of Redis: a probe may be timestamped this much early. */
    private static final Duration EARLY = Duration.ofMillis(100);
    /** A probe goes out at the first call after its time, on a busy machine: this much late at most. */
    private static final Duration LATE = Duration.ofMillis(1_500);

    @Test
    void theFleetProbesOncePerGrowingWaitUntilTheDependencyIsBack() throws Exception {
        FleetSettings settings = FleetSettings.sharedThroughRedis(INSTANCES, WAIT, Duration.ofMillis(250));
        String prefix = "--breakers.instances." + FleetInstance.BREAKER + ".";
        long began = System.nanoTime();
        try (Dependency dependency = new Dependency();
                FleetProcesses fleet = FleetProcesses.start(
                        settings,
                        redis.port(),
                        dependency::uri,
                        Path.of("target", "backoff-fleet-logs"),
                        List.of(
                                prefix + "wait-multiplier=2",
                                prefix + "max-wait-duration-in-open-state=" + MAX_WAIT.toMillis() + "ms"));
                Callers callers = new Callers(fleet)) {
            long started = System.nanoTime();
            CallLog log = new CallLog();
            dependency.healthy();
            callers.callEach(FleetSettings.WARM_UP_CALLS, log);

            CallLog.Watch rejected = log.watch(INSTANCES, CallLog.REJECTED);
            long failingSince = dependency.failing();
            Callers.Traffic traffic = callers.start(log);
            OptionalLong everyRejected =
                    awaitEvery(rejected, failingSince + Duration.ofSeconds(20).toNanos());
            assertThat(everyRejected)
                    .as("every instance rejects once the fleet tripped")
                    .isPresent();
            long stopped = everyRejected.getAsLong();

            // Five probes, each failing; healthy again right after the fifth.
            long lastProbeBy = stopped
                    + Duration.ofMillis(15_500).plus(LATE.multipliedBy(5)).toNanos();
            while (dependency.arrivals(stopped + 1, System.nanoTime()).size() < FAILED_PROBES
                    && System.nanoTime() < lastProbeBy) {
                Thread.sleep(2);
            }
            long healed = dependency.healthy();
            CallLog.Watch live = log.watch(INSTANCES, CallLog.LIVE);
            OptionalLong everyLive = awaitEvery(
                    live, healed + MAX_WAIT.plus(LATE).plusSeconds(10).toNanos());
            traffic.stop();

            List<Dependency.Arrival> trip = dependency.arrivals(failingSince, stopped);
            List<Dependency.Arrival> probes = new ArrayList<>(dependency.arrivals(stopped + 1, healed));
            List<Dependency.Arrival> afterHealed = dependency.arrivals(healed + 1, System.nanoTime());
            List<Long> intervals = new ArrayList<>();
            long previous = trip.isEmpty() ? stopped : trip.get(trip.size() - 1).nanos();
            List<Dependency.Arrival> all = new ArrayList<>(probes);
            if (!afterHealed.isEmpty()) {
                all.add(afterHealed.get(0));
            }
            for (Dependency.Arrival probe : all) {
                intervals.add((probe.nanos() - previous) / 1_000_000L);
                previous = probe.nanos();
            }
            System.out.printf(
                    "Backoff fleet: %d instances, wait %d ms x2 up to %d ms; started in %d ms; trip %d calls;"
                            + " probe intervals %s ms (expected %s); recovered %s ms after healing; %d ms in all%n",
                    INSTANCES,
                    WAIT.toMillis(),
                    MAX_WAIT.toMillis(),
                    (started - began) / 1_000_000L,
                    trip.size(),
                    intervals,
                    java.util.Arrays.toString(EXPECTED_MILLIS),
                    everyLive.isPresent() ? (everyLive.getAsLong() - healed) / 1_000_000L : "never",
                    (System.nanoTime() - began) / 1_000_000L);

            assertThat(probes)
                    .as("calls that reached the failing dependency after the fleet stopped: the probes")
                    .hasSize(FAILED_PROBES)
                    .allMatch(Dependency.Arrival::failed);
            assertThat(everyLive).as("the fleet closes on the sixth probe").isPresent();
            assertThat(afterHealed).as("calls after healing").isNotEmpty();
            // Exactly one probe in the sixth window: the first call after healing is alone until it closed the fleet.
            assertThat(afterHealed.get(0).failed()).isFalse();
            assertThat(intervals).hasSize(EXPECTED_MILLIS.length);
            for (int i = 0; i < EXPECTED_MILLIS.length; i++) {
                assertThat(intervals.get(i))
                        .as("interval before probe %d, of %s", i + 1, intervals)
                        .isBetween(EXPECTED_MILLIS[i] - EARLY.toMillis(), EXPECTED_MILLIS[i] + LATE.toMillis());
            }
        }
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
}
