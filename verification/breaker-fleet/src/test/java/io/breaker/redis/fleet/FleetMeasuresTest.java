package io.breaker.redis.fleet;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

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

    private static List<Dependency.Arrival> arrivals(double... seconds) {
        return Arrays.stream(seconds)
                .mapToObj(at -> new Dependency.Arrival((long) (at * SECOND), true, 0))
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
                0);
    }
}
