package io.breaker.redis.fleet;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The fleet harness's own arithmetic on made-up timelines: a wrong measure would pass or fail a fleet for nothing. */
class FleetMeasuresTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void probesAWaitApartAreOnePerWindowButTwoCloserThanThatAreNot() {
        Duration window = Duration.ofMillis(2900);
        assertThat(RoundRunner.mostInAnyInterval(arrivals(3.0, 6.01, 9.02), window))
                .isEqualTo(1);
        assertThat(RoundRunner.mostInAnyInterval(arrivals(3.0, 3.01, 3.02, 6.0), window))
                .isEqualTo(3);
        assertThat(RoundRunner.mostInAnyInterval(arrivals(1.0, 3.8, 6.0), window))
                .isEqualTo(2);
        assertThat(RoundRunner.mostInAnyInterval(arrivals(), window)).isZero();
    }

    @Test
    void theDependencyTellsARequestSentAloneFromTheFleets() throws Exception {
        try (Dependency dependency = new Dependency(2)) {
            long from = System.nanoTime();
            HttpClient http = HttpClient.newHttpClient();
            http.send(HttpRequest.newBuilder(dependency.uri(1)).build(), HttpResponse.BodyHandlers.discarding());
            http.send(
                    HttpRequest.newBuilder(URI.create(dependency.uri(0) + "?alone=1"))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(dependency.arrivals(from, System.nanoTime()))
                    .extracting(Dependency.Arrival::instance, Dependency.Arrival::alone)
                    .containsExactly(tuple(1, false), tuple(0, true));
        }
    }

    @Test
    void aPausedStoreMayAddItsTimeoutToTheNormalLatencyOfACallsKindAndNoMore() {
        Duration timeout = Duration.ofMillis(200);
        long ms = 1_000_000L;
        // A failed call's normal comes from failed calls of a trip answered within the timeout: the
        // 250 ms one may have waited for it already, and a live call is not of its kind.
        long failedNormal = RoundRunner.failedNormal(
                List.of(call(CallLog.FAILED, 120 * ms), call(CallLog.FAILED, 250 * ms), call(CallLog.LIVE, 180 * ms)),
                timeout);
        assertThat(failedNormal).isEqualTo(120 * ms);
        long normal = 40 * ms;
        assertThat(RoundRunner.slowCalls(
                        List.of(call(CallLog.FAILED, 320 * ms), call(CallLog.LIVE, 240 * ms)),
                        normal,
                        failedNormal,
                        timeout))
                .as("a failed call within its kind's normal plus the timeout, a live one within its own")
                .isZero();
        assertThat(RoundRunner.slowCalls(
                        List.of(
                                call(CallLog.FAILED, 321 * ms),
                                call(CallLog.LIVE, 241 * ms),
                                call(CallLog.REJECTED, 300 * ms)),
                        normal,
                        failedNormal,
                        timeout))
                .as("a live or rejected call held to the failed calls' normal would hide a wait of its own")
                .isEqualTo(3);
        assertThat(RoundRunner.slowCalls(List.of(call(CallLog.FAILED, 240 * ms)), normal, 0, timeout))
                .as("without a failed call's normal, any call's")
                .isZero();
    }

    private static CallLog.Call call(int status, long latencyNanos) {
        return new CallLog.Call(0, SECOND, SECOND + latencyNanos, status, null);
    }

    @Test
    void afterAStoreFaultRequestsSentAloneAreNotTheFleetsProbesButOtherwiseTheyAre() {
        Dependency.Arrival fleets = new Dependency.Arrival(3 * SECOND, true, 0, false);
        Dependency.Arrival alone = new Dependency.Arrival(3 * SECOND + 1, true, 1, true);
        assertThat(RoundRunner.fleetProbes(List.of(fleets, alone), true)).containsExactly(fleets);
        assertThat(RoundRunner.fleetProbes(List.of(fleets, alone), false)).containsExactly(fleets, alone);
    }

    @Test
    void aFleetThatStopsProbingWhileOpenMissesOneProbePerWait() {
        FleetSettings settings = new FleetSettings(
                3, 1, "redis", List.of(), Duration.ofSeconds(3), Duration.ofMillis(50), true, List.of());
        assertThat(open(7.5, 3.0, 6.0).oneProbePerWait(settings)).isTrue();
        assertThat(open(7.5, 3.0).longestWithoutProbe()).isEqualTo(4.5);
        assertThat(open(7.5, 3.0).oneProbePerWait(settings)).isFalse();
        assertThat(open(7.5).oneProbePerWait(settings)).isFalse();
        assertThat(open(7.5, 3.0, 3.0, 6.0).oneProbePerWait(settings)).isFalse();
    }

    @Test
    void everyInstanceHasAnsweredOnceEachGaveItsFirstAnswerToACallStartedAfterTheWatch() {
        CallLog log = new CallLog();
        log.add(new CallLog.Call(0, 0, 1, CallLog.REJECTED, null));
        CallLog.Watch watch = log.watch(2, CallLog.REJECTED);
        long t = watch.since();
        log.add(new CallLog.Call(1, t - 5, t + 10, CallLog.REJECTED, null)); // started before the watch
        log.add(new CallLog.Call(0, t + 1, t + 20, CallLog.REJECTED, null));
        assertThat(watch.everyAnswered()).isEmpty();
        assertThat(watch.missing()).containsExactly(1);

        log.add(new CallLog.Call(1, t + 2, t + 30, CallLog.FAILED, null));
        log.add(new CallLog.Call(1, t + 31, t + 40, CallLog.REJECTED, null));
        log.add(new CallLog.Call(0, t + 21, t + 50, CallLog.REJECTED, null));
        assertThat(watch.everyAnswered()).isEqualTo(OptionalLong.of(t + 40));
    }

    @Test
    void onlyAnswersOtherThanLiveFailedAndRejectedAreCallerVisibleErrors() {
        List<CallLog.Call> calls = List.of(
                new CallLog.Call(0, 0, 1, CallLog.LIVE, null),
                new CallLog.Call(0, 0, 1, CallLog.FAILED, null),
                new CallLog.Call(0, 0, 1, CallLog.REJECTED, null),
                new CallLog.Call(0, 0, 1, 500, "HTTP 500"),
                new CallLog.Call(0, 0, 1, CallLog.NO_ANSWER, "java.net.ConnectException"));
        assertThat(CallLog.errors(calls)).extracting(CallLog.Call::status).containsExactly(500, CallLog.NO_ANSWER);
    }

    @Test
    void callsOverTheGoalWithinOneCallPerLateReportAreNoMiss() {
        FleetSettings settings = new FleetSettings(
                3, 1, "redis", List.of(), Duration.ofSeconds(3), Duration.ofMillis(50), true, List.of());
        // goal: threshold 5 + 3 instances - 1 = 7; two late reports allow 9
        assertThat(round(8, 2, 6.0, 1.0, 4.0).misses(settings)).isEmpty();
        assertThat(round(8, 2, 6.0, 1.0, 4.0).tripMet(settings)).isFalse();
        assertThat(round(9, 2, 6.0, 1.0, 4.0).misses(settings)).isEmpty();
    }

    @Test
    void callsOverTheGuaranteedBoundAreAMiss() {
        FleetSettings settings = new FleetSettings(
                3, 1, "redis", List.of(), Duration.ofSeconds(3), Duration.ofMillis(50), true, List.of());
        assertThat(round(8, 0, 6.0, 1.0, 4.0).misses(settings))
                .containsExactly(
                        "round: 8 calls reached the failing dependency (guaranteed <= 7: goal 7 + 0 late reports)");
        assertThat(round(10, 2, 6.0, 1.0, 4.0).misses(settings)).hasSize(1);
    }

    @Test
    void commandStatsCountEveryCommandButTheirOwnReadsAndTheScriptsApart() {
        RedisCommandStats before = RedisCommandStats.parse(info(
                "run_id:aaa1",
                "cmdstat_evalsha:calls=100,usec=5000,usec_per_call=50.00,rejected_calls=0,failed_calls=1",
                "cmdstat_hmget:calls=300,usec=600,usec_per_call=2.00,rejected_calls=0,failed_calls=0",
                "cmdstat_info:calls=7,usec=70,usec_per_call=10.00,rejected_calls=0,failed_calls=0"));
        RedisCommandStats after = RedisCommandStats.parse(info(
                "run_id:aaa1",
                "cmdstat_eval:calls=2,usec=300,usec_per_call=150.00,rejected_calls=0,failed_calls=0",
                "cmdstat_evalsha:calls=140,usec=7400,usec_per_call=52.86,rejected_calls=0,failed_calls=1",
                "cmdstat_hgetall:calls=40,usec=120,usec_per_call=3.00,rejected_calls=0,failed_calls=0",
                "cmdstat_hmget:calls=420,usec=840,usec_per_call=2.00,rejected_calls=0,failed_calls=0",
                "cmdstat_client|setname:calls=3,usec=3,usec_per_call=1.00,rejected_calls=0,failed_calls=0",
                "cmdstat_info:calls=9,usec=90,usec_per_call=10.00,rejected_calls=0,failed_calls=0"));
        RedisCommandStats during = after.since(before);

        assertThat(during.calls("evalsha")).isEqualTo(40);
        assertThat(during.scriptCalls()).isEqualTo(42);
        assertThat(during.scriptMicros()).isEqualTo(2400 + 300);
        // 2 + 40 + 40 + 120 + 3; the two INFO reads are the harness's own
        assertThat(during.calls()).isEqualTo(205);
    }

    @Test
    void aRedisRestartedBetweenTwoReadingsCountsFromZero() {
        RedisCommandStats before =
                RedisCommandStats.parse(info("run_id:aaa1", "cmdstat_evalsha:calls=100,usec=5000,usec_per_call=50.00"));
        // the new server has already run more scripts than the old one had when it was read
        RedisCommandStats after =
                RedisCommandStats.parse(info("run_id:bbb2", "cmdstat_evalsha:calls=120,usec=4000,usec_per_call=33.33"));
        assertThat(after.since(before).calls()).isEqualTo(120);
        assertThat(after.since(before).scriptMicros()).isEqualTo(4000);
        RedisCommandStats reset =
                RedisCommandStats.parse(info("run_id:aaa1", "cmdstat_evalsha:calls=8,usec=400,usec_per_call=50.00"));
        assertThat(reset.since(before).calls()).isEqualTo(8);
    }

    @Test
    void aPeriodsCostIsPerInstanceAndSecondAndItsMemoryLeavesOutWhatCouldNotBeRead() {
        RedisCommandStats commands = RedisCommandStats.parse(info(
                "cmdstat_evalsha:calls=20,usec=1000,usec_per_call=50.00",
                "cmdstat_hmget:calls=60,usec=120,usec_per_call=2.00"));
        FleetCost cost = new FleetCost(
                "round 1", 2 * SECOND, 4, commands, List.of(300L, -1L, 100L, 200L), List.of(-1L, -1L, -1L, -1L));

        assertThat(cost.commandsPerInstanceSecond()).isEqualTo(10.0); // 80 commands / 2 s / 4 instances
        assertThat(cost.scriptsPerInstanceSecond()).isEqualTo(2.5);
        assertThat(cost.microsPerScript()).isEqualTo(50.0);
        assertThat(FleetCost.median(cost.residentKib())).isEqualTo(200);
        assertThat(FleetCost.max(cost.residentKib())).isEqualTo(300);
        assertThat(FleetCost.median(cost.heapBytes())).isEqualTo(-1);
    }

    @Test
    void aLargeFleetGetsLongerToStart() {
        assertThat(FleetProcesses.startLimit(3)).isEqualTo(Duration.ofSeconds(180));
        assertThat(FleetProcesses.startLimit(40)).isEqualTo(Duration.ofSeconds(600));
    }

    /** An {@code INFO server commandstats} reply as Redis sends it (in part): a bulk string of CRLF lines. */
    private static String info(String... lines) {
        String body = "# Server\r\n" + String.join("\r\n", lines) + "\r\n";
        return "$" + body.length() + "\r\n" + body + "\r\n";
    }

    private static List<Dependency.Arrival> arrivals(double... seconds) {
        return Arrays.stream(seconds)
                .mapToObj(at -> new Dependency.Arrival((long) (at * SECOND), true, 0, false))
                .toList();
    }

    private static RoundResult open(double openSeconds, Double... probes) {
        return round(5, 0, openSeconds, probes);
    }

    private static RoundResult round(int tripCalls, int lateReports, double openSeconds, Double... probes) {
        int most = RoundRunner.mostInAnyInterval(
                arrivals(Arrays.stream(probes).mapToDouble(p -> p).toArray()), Duration.ofMillis(2900));
        return new RoundResult(
                "round",
                null,
                tripCalls,
                List.of(tripCalls),
                List.of(),
                lateReports,
                probes.length,
                most,
                List.of(probes),
                0,
                openSeconds,
                -1,
                1000,
                1000,
                List.of("CLOSED"),
                1,
                10,
                0,
                null,
                0,
                -1,
                -1,
                -1,
                0);
    }
}
